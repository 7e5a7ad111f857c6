import { secret, unwrapSecrets, wrapSecrets } from "../../../plugin/secrets";

test("secrets are unwrapped deeply and their top-level keys remembered", () => {
  const { props, secretKeys } = unwrapSecrets({ a: secret("x"), b: { c: [secret(1)] }, d: "plain" });
  expect(props).toEqual({ a: "x", b: { c: [1] }, d: "plain" });
  expect([...secretKeys].sort()).toEqual(["a", "b"]);
  expect(unwrapSecrets(undefined)).toEqual({ props: {}, secretKeys: new Set() });
});

test("the named keys are wrapped once; unset ones stay as they are", () => {
  const out = wrapSecrets({ a: "x", b: null, c: secret("y"), d: 1 }, ["a", "b", "c", "missing"]);
  expect(out).toEqual({ a: secret("x"), b: null, c: secret("y"), d: 1 });
  expect(wrapSecrets(undefined, ["a"])).toBeUndefined();
});
