// The package schema holds every kind of the registry with every input and output, described, the
// secret outputs marked, every lookup of the registry as a function, and the settings under the
// package's name.
import { argsShape, inputShape, outputShape } from "../../../provider/kernel/define";
import { definitions, lookupDefinitions } from "../../../provider/registry";
import { buildSchema } from "../../../plugin/schema";

const schema = buildSchema(definitions(), { version: "1.2.3", lookups: lookupDefinitions() }) as any;

test("every kind is a resource with all its inputs and outputs, and the account", () => {
  expect(Object.keys(schema.resources).sort()).toEqual(
    definitions()
      .map((d) => `pagerduty-dynamic:index:${d.kind}`)
      .sort(),
  );
  for (const d of definitions()) {
    const r = schema.resources[`pagerduty-dynamic:index:${d.kind}`];
    expect(r.description).toBe(d.description);
    expect(Object.keys(r.inputProperties).sort()).toEqual([...Object.keys(inputShape(d)), "account"].sort());
    expect(Object.keys(r.properties).sort()).toEqual([...Object.keys(outputShape(d)), "account"].sort());
  }
});

test("every property, nested ones included, has a description, and every reference resolves", () => {
  const missing: string[] = [];
  const refs: string[] = [];
  const walk = (where: string, props: Record<string, any>) => {
    for (const [k, p] of Object.entries(props ?? {})) {
      if (!p.description) missing.push(`${where}.${k}`);
      for (const m of JSON.stringify(p).matchAll(/"\$ref":"#\/types\/([^"]+)"/g)) refs.push(m[1]);
    }
  };
  for (const [t, r] of Object.entries<any>(schema.resources)) {
    walk(`${t} inputs`, r.inputProperties);
    walk(`${t} outputs`, r.properties);
  }
  for (const [t, spec] of Object.entries<any>(schema.types)) walk(t, spec.properties);
  for (const [t, f] of Object.entries<any>(schema.functions)) {
    walk(`${t} inputs`, f.inputs.properties);
    walk(`${t} outputs`, f.outputs.properties);
  }
  expect(missing).toEqual([]);
  expect(refs.filter((t) => !schema.types[t])).toEqual([]);
});

test("secret outputs are marked secret, as are the credentials among the settings", () => {
  expect(schema.resources["pagerduty-dynamic:index:ServiceIntegration"].properties.integrationKey.secret).toBe(true);
  for (const d of definitions())
    for (const k of d.secretOutputs ?? []) expect(schema.resources[`pagerduty-dynamic:index:${d.kind}`].properties[k].secret).toBe(true);
  const secrets = Object.entries<any>(schema.config.variables)
    .filter(([, v]) => v.secret)
    .map(([k]) => k);
  expect(secrets.sort()).toEqual(["accounts", "clientSecret", "refreshToken", "token"]);
  expect(schema.provider.inputProperties.clientSecret.secret).toBe(true);
});

test("every lookup is a function with its definition's description, arguments, the account and its result", () => {
  expect(Object.keys(schema.functions)).toEqual(lookupDefinitions().map((l) => `pagerduty-dynamic:index:${l.functionName}`));
  for (const l of lookupDefinitions()) {
    const f = schema.functions[`pagerduty-dynamic:index:${l.functionName}`];
    expect(f.description).toBe(l.description);
    expect(Object.keys(f.inputs.properties)).toEqual([...Object.keys(argsShape(l)), "account"]);
  }
  const f = schema.functions["pagerduty-dynamic:index:getServiceIntegration"];
  expect(f.inputs.required).toEqual(["service", "name"]);
  expect(f.inputs.properties.service.description).toBe("Id of the service.");
  expect(f.outputs.properties.integrationKey).toBeUndefined(); // never the routing key
  expect(schema.functions["pagerduty-dynamic:index:getServiceAuditRecords"].inputs.required).toEqual(["service"]);
  expect(schema.functions["pagerduty-dynamic:index:getServiceEventRules"].outputs.properties.rules.items.$ref).toBe(
    "#/types/pagerduty-dynamic:index:EventRuleLookup",
  );
});
