// emulator/README.md's REST table says what the emulator does for the rows clients trip over
// (issue 29: it said `type: "service"` was required on create, and `rule_id` on rule updates,
// while both are optional, as production clients need).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { type Client, createService, type Emu, startWithClient } from "./helpers";

const README = readFileSync(join(__dirname, "..", "..", "emulator", "README.md"), "utf8");

/** The REST table row for `route` (its first cell, without backticks). */
function row(route: string): string {
  const found = README.split("\n").find((l) => l.startsWith("| `") && l.split("|")[1].trim().replace(/`/g, "") === route);
  if (!found) throw new Error(`README has no row for ${route}`);
  return found;
}

let e: Emu;
let api: Client;
beforeAll(async () => ({ e, api } = await startWithClient()));
afterAll(() => e.close());

test('POST /services: type is optional (and must be "service" when given), as the README says', async () => {
  const doc = row("POST /services");
  expect(doc).not.toMatch(/`type: "service"` required/);
  expect(doc).toMatch(/`type` optional/);
  const without = await api.post("/services", { service: { name: "no-type", escalation_policy: { id: e.seed.escalationPolicyId } } });
  expect(without.status).toBe(201);
  expect(without.json.service.type).toBe("service");
  const wrong = await api.post("/services", { service: { type: "team", name: "wrong-type", escalation_policy: { id: e.seed.escalationPolicyId } } });
  expect(wrong.status).toBe(400);
  expect(wrong.json.error.errors).toEqual(['"type" must be one of: service']);
});

test("PUT /services/{id}/rules/{rid}: rule_id is optional and must match the path, as the README says", async () => {
  const doc = row("GET/PUT/DELETE /services/{id}/rules/{rid}");
  expect(doc).not.toMatch(/`rule_id` is required/);
  expect(doc).toMatch(/`rule_id`.*optional/);
  const sid = await createService(e, api);
  const rid = (await api.post(`/services/${sid}/rules`, { rule: {} })).json.rule.id;
  expect((await api.put(`/services/${sid}/rules/${rid}`, { rule: { disabled: true } })).status).toBe(200);
  expect((await api.put(`/services/${sid}/rules/${rid}`, { rule_id: "other", rule: { disabled: true } })).status).toBe(400);
});

test("POST /services/{id}/rules/convert: the README names exactly the reply's keys", async () => {
  const sid = await createService(e, api);
  const reply = (await api.post(`/services/${sid}/rules/convert`)).json;
  const doc = row("POST /services/{id}/rules/convert");
  for (const key of Object.keys(reply)) expect(doc).toContain(key);
  for (const gone of ["converted_at", "rules_converted"]) expect(doc).not.toContain(gone);
});
