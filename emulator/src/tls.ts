// HTTPS for clients that refuse plain HTTP (PagerDuty's official clients require https://): a local
// CA and a server certificate for 127.0.0.1/localhost/::1 signed by it, or the user's own files.
// Clients trust the CA file (NODE_EXTRA_CA_CERTS, SSL_CERT_FILE, REQUESTS_CA_BUNDLE); the CA is a
// separate certificate from the server's because strict verifiers (Python 3.13, Go) reject a
// self-signed leaf used as its own trust anchor.
import { webcrypto } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import * as x509 from "@peculiar/x509";

export interface TlsFiles {
  /** PEM of the server certificate (followed by its issuer when generated) and its private key. */
  cert: string;
  key: string;
  /** The file clients should trust. */
  caFile: string;
  /** Removes generated files that live only as long as the process (temp dir); no-op otherwise. */
  cleanup(): void;
}

type CryptoKey = webcrypto.CryptoKey;
type CryptoKeyPair = webcrypto.CryptoKeyPair;

const ALG = { name: "ECDSA", namedCurve: "P-256", hash: "SHA-256" } as const;
const DAY = 24 * 3600 * 1000;

x509.cryptoProvider.set(webcrypto as never);

const serial = () =>
  Buffer.from(webcrypto.getRandomValues(new Uint8Array(8)))
    .toString("hex")
    .replace(/^[89a-f]/, "1");

async function pemKey(key: CryptoKey): Promise<string> {
  const der = Buffer.from(await webcrypto.subtle.exportKey("pkcs8", key));
  return `-----BEGIN PRIVATE KEY-----\n${der
    .toString("base64")
    .match(/.{1,64}/g)!
    .join("\n")}\n-----END PRIVATE KEY-----\n`;
}

async function importKey(pem: string): Promise<CryptoKey> {
  const der = Buffer.from(pem.replace(/-----[A-Z ]+-----|\s/g, ""), "base64");
  return webcrypto.subtle.importKey("pkcs8", der, ALG, true, ["sign"]);
}

interface Ca {
  cert: x509.X509Certificate;
  key: CryptoKey;
}

async function newCa(): Promise<Ca> {
  const keys = (await webcrypto.subtle.generateKey(ALG, true, ["sign", "verify"])) as CryptoKeyPair;
  const now = Date.now();
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serial(),
    name: "CN=pagerduty-emulator local CA",
    notBefore: new Date(now - DAY),
    notAfter: new Date(now + 3650 * DAY),
    signingAlgorithm: ALG,
    keys,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { cert, key: keys.privateKey };
}

async function serverCert(ca: Ca): Promise<{ cert: string; key: string }> {
  const keys = (await webcrypto.subtle.generateKey(ALG, true, ["sign", "verify"])) as CryptoKeyPair;
  const now = Date.now();
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: serial(),
    subject: "CN=localhost",
    issuer: ca.cert.subject,
    notBefore: new Date(now - DAY),
    notAfter: new Date(now + 365 * DAY),
    signingAlgorithm: ALG,
    publicKey: keys.publicKey,
    signingKey: ca.key,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
      new x509.SubjectAlternativeNameExtension([
        { type: "dns", value: "localhost" },
        { type: "ip", value: "127.0.0.1" },
        { type: "ip", value: "::1" },
      ]),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
      await x509.AuthorityKeyIdentifierExtension.create(ca.cert),
    ],
  });
  return { cert: `${cert.toString("pem")}\n${ca.cert.toString("pem")}\n`, key: await pemKey(keys.privateKey) };
}

/**
 * A CA and a fresh server certificate. With `dir` (beside the data file) the CA is kept in
 * `ca.pem`/`ca-key.pem` and reused on the next start, so clients keep trusting the same file;
 * without it they go to a temp dir removed by `cleanup`.
 */
export async function generateTls(dir?: string): Promise<TlsFiles> {
  const home = dir ?? mkdtempSync(join(tmpdir(), "pagerduty-emulator-tls-"));
  mkdirSync(home, { recursive: true, mode: 0o700 });
  const caFile = join(home, "ca.pem");
  const caKeyFile = join(home, "ca-key.pem");
  let ca: Ca;
  if (existsSync(caFile) && existsSync(caKeyFile)) {
    ca = { cert: new x509.X509Certificate(readFileSync(caFile, "utf8")), key: await importKey(readFileSync(caKeyFile, "utf8")) };
  } else {
    ca = await newCa();
    writeFileSync(caKeyFile, await pemKey(ca.key), { mode: 0o600 });
    writeFileSync(caFile, `${ca.cert.toString("pem")}\n`);
  }
  const server = await serverCert(ca);
  return { ...server, caFile, cleanup: () => (dir ? undefined : rmSync(home, { recursive: true, force: true })) };
}

/** The user's own certificate and key; the certificate file is what clients are told to trust. */
export function readTls(certFile: string, keyFile: string): TlsFiles {
  const read = (f: string, what: string) => {
    try {
      return readFileSync(f, "utf8");
    } catch (e) {
      throw new Error(`cannot read the TLS ${what} ${f}: ${(e as Error).message}`);
    }
  };
  return { cert: read(certFile, "certificate"), key: read(keyFile, "key"), caFile: certFile, cleanup: () => undefined };
}

/** Where a data file's CA lives: `<data>.tls/` beside it. */
export const tlsDirFor = (dataFile: string): string => join(dirname(dataFile), `${dataFile.split(/[\\/]/).pop()}.tls`);
