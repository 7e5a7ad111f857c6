import { PagerDutyError } from "../../../../provider/errors";
import { UNKNOWN } from "../../../../provider/kernel/check";
import { pick, planWrite, resource } from "../../../../provider/resources/service-custom-field-values";
import { reply, replyGone, useApi } from "../../support/resource-api";

const api = useApi();
const provider = api.provider(resource);
const PATH = "/services/PSVC/custom_fields/values";
const FIELDS = "/services/custom_fields?include%5B%5D=field_options";

const field = (id: string, name: string, value: unknown) => ({
  id,
  name,
  display_name: name,
  data_type: "string",
  field_type: "single_value",
  type: "field_value",
  value,
});
const live = (v: { tier?: unknown; runbook?: unknown; pci?: unknown } = {}) => ({
  custom_fields: [field("F1", "tier", v.tier ?? null), field("F2", "runbook", v.runbook ?? null), field("F3", "pci", v.pci ?? null)],
});

describe("check", () => {
  const check = (news: Record<string, unknown>) => provider.check!({}, { service: "PSVC", values: { tier: "gold" }, ...news });
  test("names the property and the problem", async () => {
    await expect(check({ service: "" })).resolves.toMatchObject({ failures: [{ property: "", reason: "service: must be a service id" }] });
    await expect(check({ values: {} })).resolves.toMatchObject({ failures: [{ property: "", reason: "values: must name at least one custom field" }] });
    await expect(check({ values: { tier: { nested: 1 } } })).resolves.toMatchObject({
      failures: [{ property: "", reason: expect.stringMatching(/^values\.tier: /) }],
    });
    await expect(check({ values: { tags: [] } })).resolves.toMatchObject({
      failures: [{ property: "", reason: expect.stringMatching(/^values\.tags: .*null to clear/) }],
    });
    await expect(check({ values: undefined })).resolves.toMatchObject({ failures: [{ property: "", reason: expect.stringMatching(/^values: /) }] });
    await expect(check({ adoptId: "x" })).resolves.toMatchObject({ failures: [{ reason: expect.stringContaining("adoptId") }] });
  });
  const definitions = (...names: string[]) => reply(api, "GET", FIELDS, { fields: names.map((name, i) => ({ id: `F${i}`, name })) });
  test("accepts scalars, arrays and null", async () => {
    definitions("tier", "pci", "n", "tags", "runbook");
    await expect(check({ values: { tier: "gold", pci: true, n: 1.5, tags: ["a", "b"], runbook: null } })).resolves.not.toHaveProperty("failures");
  });
  test("a field name the account does not define fails at check (preview), listing the known ones", async () => {
    definitions("tier", "runbook");
    await expect(check({ values: { tier: "gold", teir: "x" } })).resolves.toMatchObject({
      failures: [{ property: "", reason: 'values.teir: the account has no custom field named "teir" (fields: tier, runbook)' }],
    });
    expect(api.calls.map((c) => `${c.method} ${c.path}`)).toEqual([`GET ${FIELDS}`]);
  });
  test("a value of the wrong kind fails at check, named as values.<field>, against the definitions", async () => {
    const options = (...vs: string[]) => vs.map((value) => ({ data: { data_type: "string", value } }));
    reply(api, "GET", FIELDS, {
      fields: [
        { id: "F1", name: "pci", data_type: "boolean", field_type: "single_value" },
        { id: "F2", name: "tier", data_type: "string", field_type: "single_value_fixed", field_options: options("gold", "silver") },
        { id: "F3", name: "tags", data_type: "string", field_type: "multi_value" },
        { id: "F4", name: "runbook", data_type: "url", field_type: "single_value" },
        { id: "F5", name: "count", data_type: "integer", field_type: "single_value" },
      ],
    });
    const failures = async (values: Record<string, unknown>) => ((await check({ values })).failures ?? []).map((f) => f.reason);
    expect(await failures({ pci: "yes" })).toEqual(['values.pci: must be true or false ("pci" is a single_value boolean field); got "yes"']);
    expect(await failures({ tier: "platinum" })).toEqual(['values.tier: must be one of the field\'s options "gold", "silver"; got "platinum"']);
    expect(await failures({ tags: "a" })).toEqual([expect.stringMatching(/^values\.tags: must be a list of values/)]);
    expect(await failures({ pci: [true] })).toEqual([expect.stringMatching(/^values\.pci: must be a single value, not a list/)]);
    expect(await failures({ runbook: "not a url", count: 1.5 })).toEqual([
      expect.stringMatching(/^values\.runbook: must be an http\(s\) URL/),
      expect.stringMatching(/^values\.count: must be an integer/),
    ]);
    // Right kinds, null (clears) and values not known until apply pass.
    expect(await failures({ pci: false, tier: "silver", tags: ["a"], runbook: "https://x.example/rb", count: 3 })).toEqual([]);
    expect(await failures({ pci: null, tier: UNKNOWN })).toEqual([]);
    // The definitions were read once for all of these checks.
    expect(api.calls.map((c) => `${c.method} ${c.path}`)).toEqual([`GET ${FIELDS}`]);
  });
});

describe("diff", () => {
  const olds = { service: "PSVC", values: { tier: "gold", runbook: null }, previousValues: { tier: "silver", runbook: null } };
  const diff = (news: Record<string, unknown>) => provider.diff!("PSVC", olds, { service: "PSVC", __provider: "p", ...news });
  test("no change when the managed values match, whatever their order", async () => {
    await expect(diff({ values: { runbook: null, tier: "gold" } })).resolves.toMatchObject({ changes: false, replaces: [] });
  });
  test("a changed, added or removed field is an in-place change", async () => {
    for (const values of [
      { tier: "silver", runbook: null },
      { tier: "gold", runbook: null, pci: true },
      { tier: "gold" },
      { tier: "gold", runbook: "https://x" },
    ]) {
      await expect(diff({ values })).resolves.toMatchObject({ changes: true, replaces: [] });
    }
  });
  test("arrays compare by value", async () => {
    const o = { ...olds, values: { tags: ["a", "b"] } };
    await expect(provider.diff!("PSVC", o, { service: "PSVC", values: { tags: ["a", "b"] } })).resolves.toMatchObject({ changes: false });
    await expect(provider.diff!("PSVC", o, { service: "PSVC", values: { tags: ["b", "a"] } })).resolves.toMatchObject({ changes: true });
  });
  test("a different service replaces", async () => {
    await expect(diff({ service: "POTHER", values: olds.values })).resolves.toMatchObject({ changes: true, replaces: ["service"] });
  });
});

describe("create", () => {
  test("records the previous values of the named fields and writes them in one PUT", async () => {
    reply(api, "GET", PATH, live({ tier: "gold", pci: true }));
    reply(api, "PUT", PATH, live({ tier: "silver", runbook: "https://runbooks/x", pci: true }));
    const r = await provider.create!({ service: "PSVC", values: { tier: "silver", runbook: "https://runbooks/x" }, __provider: "p" });
    expect(api.calls[1].body).toEqual({
      custom_fields: [
        { id: "F1", name: "tier", value: "silver" },
        { id: "F2", name: "runbook", value: "https://runbooks/x" },
      ],
    });
    expect(r).toEqual({
      id: "PSVC",
      outs: {
        service: "PSVC",
        values: { tier: "silver", runbook: "https://runbooks/x" },
        previousValues: { tier: "gold", runbook: null },
        __declared: "service,values{tier,runbook}",
      },
    });
  });

  test("a field the account does not have fails before anything is written", async () => {
    reply(api, "GET", PATH, live());
    const err = await provider.create!({ service: "PSVC", values: { tier: "gold", colour: "red" } }).catch((e) => e);
    expect(err).toBeInstanceOf(PagerDutyError);
    expect(err.message).toContain('"colour"');
    expect(err.message).toContain("tier, runbook, pci");
    expect(api.calls.map((c) => c.method)).toEqual(["GET"]);
  });
});

describe("read", () => {
  test("reports only the managed fields and keeps the previous values", async () => {
    reply(api, "GET", PATH, live({ tier: "silver", pci: false }));
    const r = await provider.read!("PSVC", { service: "PSVC", values: { tier: "gold" }, previousValues: { tier: null } });
    expect(r).toEqual({ id: "PSVC", props: { service: "PSVC", values: { tier: "silver" }, previousValues: { tier: null } } });
  });
  test("with nothing recorded (an import), the fields holding a value are managed and what they hold is what delete restores", async () => {
    reply(api, "GET", PATH, live({ tier: "silver", pci: false }));
    await expect(provider.read!("PSVC", {})).resolves.toEqual({
      id: "PSVC",
      props: { service: "PSVC", values: { tier: "silver", pci: false }, previousValues: { tier: "silver", pci: false } },
    });
  });
  test("an import of a service whose fields hold nothing fails, naming the service", async () => {
    reply(api, "GET", PATH, live());
    await expect(provider.read!("PSVC", {})).rejects.toThrow("service PSVC holds no custom field value, so there is nothing to import");
  });
  test("a deleted service drops the resource", async () => {
    replyGone(api, "GET", PATH);
    await expect(provider.read!("PSVC", { service: "PSVC", values: { tier: "gold" } })).resolves.toEqual({ id: "", props: {} });
  });
});

describe("update", () => {
  test("adds, changes and releases fields in one PUT; a released field gets its previous value back", async () => {
    reply(api, "GET", PATH, live({ tier: "silver", runbook: "https://r", pci: true }));
    reply(api, "PUT", PATH, live({ tier: "gold", runbook: null, pci: false }));
    const olds = { service: "PSVC", values: { tier: "silver", runbook: "https://r" }, previousValues: { tier: "gold", runbook: null } };
    const r = await provider.update!("PSVC", olds, { service: "PSVC", values: { tier: "gold", pci: false } });
    expect(api.calls[1].body.custom_fields).toEqual([
      { id: "F1", name: "tier", value: "gold" },
      { id: "F3", name: "pci", value: false },
      { id: "F2", name: "runbook", value: null },
    ]);
    // pci's value before management (true) is what delete will restore; tier keeps its original record.
    expect(r.outs).toEqual({
      service: "PSVC",
      values: { tier: "gold", pci: false },
      previousValues: { pci: true, tier: "gold" },
      __declared: "service,values{tier,pci}",
    });
  });
});

describe("delete", () => {
  const props = { service: "PSVC", values: { tier: "silver", pci: false }, previousValues: { tier: "gold", pci: null } };

  test("restores exactly the previous values, null where they were empty", async () => {
    reply(api, "GET", PATH, live({ tier: "silver", pci: false }));
    reply(api, "PUT", PATH, live({ tier: "gold" }));
    await provider.delete!("PSVC", props);
    expect(api.calls[1].body).toEqual({
      custom_fields: [
        { id: "F1", name: "tier", value: "gold" },
        { id: "F3", name: "pci", value: null },
      ],
    });
  });

  test("fails when the API did not apply the restore", async () => {
    reply(api, "GET", PATH, live({ tier: "silver", pci: false }));
    reply(api, "PUT", PATH, live({ tier: "silver", pci: false }));
    await expect(provider.delete!("PSVC", props)).rejects.toThrow(/did not take effect: "tier" is "silver", expected "gold"; "pci" is false, expected null/);
  });

  test("a deleted service has nothing to restore", async () => {
    replyGone(api, "GET", PATH);
    await provider.delete!("PSVC", props);
    // The first look and two second looks (kernel/consistency.ts), nothing written.
    expect(api.calls).toHaveLength(3);
  });

  test("a field whose definition was deleted is skipped", async () => {
    reply(api, "GET", PATH, { custom_fields: [field("F3", "pci", false)] });
    reply(api, "PUT", PATH, { custom_fields: [field("F3", "pci", null)] });
    await provider.delete!("PSVC", props);
    expect(api.calls[1].body).toEqual({ custom_fields: [{ id: "F3", name: "pci", value: null }] });
  });

  test("other errors propagate (a delete never silently does nothing)", async () => {
    reply(api, "GET", PATH, live({ tier: "silver" }));
    reply(api, "PUT", PATH, { error: { message: "Invalid Input Provided", code: 2001, errors: ["nope"] } }, 400);
    await expect(provider.delete!("PSVC", props)).rejects.toThrow(/400 Invalid Input Provided/);
  });
});

test("pick and planWrite", () => {
  const l = live({ tier: "gold" }).custom_fields;
  expect(pick(l, ["tier", "runbook", "gone"])).toEqual({ tier: "gold", runbook: null, gone: null });
  expect(planWrite(l, { tier: "silver" }, { runbook: "https://r", gone: 1 }, ["runbook", "gone"]).map((i) => [i.field.name, i.value])).toEqual([
    ["tier", "silver"],
    ["runbook", "https://r"],
  ]);
});
