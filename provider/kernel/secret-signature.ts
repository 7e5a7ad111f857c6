// Pulumi's marker of a secret value (@pulumi/pulumi/runtime/rpc.js: specialSigKey, specialSecretSig):
// an object whose SIG_KEY field holds SECRET_SIG is a secret. On the wire the plugin sees it around
// the `value`; a state exported with --show-secrets holds it with the JSON `plaintext` (without:
// `ciphertext`).

/** The field that marks a special value. */
export const SIG_KEY = "4dabf18193072939515e22adb298388d";

/** SIG_KEY's value in a secret. */
export const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";
