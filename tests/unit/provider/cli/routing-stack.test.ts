// provider/cli/routing-stack.ts: routing keys from the stack: an output (the key, or a whole
// integration), else a ServiceIntegration by resource name (the SDK's type or the Pulumi
// package's), the key a secret there; what cannot be found is named, never a key.
import type { Pulumi } from "../../../../provider/cli/pulumi-runner";
import { integrationKeys } from "../../../../provider/cli/routing-stack";

const KEY = "a1b2c3d4e5f60718293a4b5c6d7e8f90";
const secret = (v: unknown) => ({ "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", plaintext: JSON.stringify(v) });
const resource = (type: string, name: string, outputs: Record<string, unknown>) => ({ urn: `urn:pulumi:dev::p::${type}::${name}`, type, outputs });

function stack(outputs: Record<string, unknown>, resources: unknown[] = []) {
  const calls: string[] = [];
  const pulumi: Pulumi = (args) => {
    calls.push(args.join(" "));
    if (args[1] === "output") return JSON.stringify(outputs);
    if (args[1] === "export") return JSON.stringify({ deployment: { resources } });
    throw new Error(args.join(" "));
  };
  return { pulumi, calls };
}

test("an output holding the key, or the integration itself; the state is not read when outputs suffice", () => {
  const s = stack({ events: KEY, whole: { id: "PINT", integrationKey: KEY.replace("a1", "b2") } });
  expect(integrationKeys(s.pulumi, ["events", "whole", "events"])).toEqual(
    new Map([
      ["events", KEY],
      ["whole", KEY.replace("a1", "b2")],
    ]),
  );
  expect(s.calls).toEqual(["stack output --json --show-secrets"]);
});

test("a ServiceIntegration by its resource name, from the SDK or the Pulumi package, its key a secret in the export", () => {
  const s = stack({}, [
    resource("pulumi-nodejs:dynamic/pagerduty:ServiceIntegration", "ts-events", { integrationKey: secret(KEY) }),
    resource("pagerduty-dynamic:index:ServiceIntegration", "yaml-events", { integrationKey: secret(KEY.replace("a1", "c3")) }),
    resource("pulumi-nodejs:dynamic/pagerduty:Service", "ts-events-service", {}),
  ]);
  expect(integrationKeys(s.pulumi, ["ts-events", "yaml-events"])).toEqual(
    new Map([
      ["ts-events", KEY],
      ["yaml-events", KEY.replace("a1", "c3")],
    ]),
  );
  expect(s.calls).toEqual(["stack output --json --show-secrets", "stack export --show-secrets"]);
});

test("what is not there, or holds no key, is named; the key never is", () => {
  const s = stack({ url: 42 }, [
    resource("pulumi-nodejs:dynamic/pagerduty:ServiceIntegration", "mail", {}),
    resource("pulumi-nodejs:dynamic/pagerduty:ServiceIntegration", "twice", { integrationKey: KEY }),
    resource("pagerduty-dynamic:index:ServiceIntegration", "twice", { integrationKey: KEY }),
  ]);
  expect(() => integrationKeys(s.pulumi, ["nope"])).toThrow(
    'the stack has no output and no ServiceIntegration named "nope" (it has: output url, integration mail, integration twice, integration twice)',
  );
  expect(() => integrationKeys(s.pulumi, ["url"])).toThrow('stack output "url" holds no routing key');
  expect(() => integrationKeys(s.pulumi, ["mail"])).toThrow('ServiceIntegration "mail" has no routing key (only Events API integrations have one)');
  expect(() => integrationKeys(s.pulumi, ["twice"])).toThrow('2 ServiceIntegrations are named "twice": name a stack output instead');
});
