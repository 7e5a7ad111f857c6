import { AccountContext } from "../../../../provider/account/context";
import { ApiError } from "../../../../provider/errors";
import type { ApiClient } from "../../../../provider/http/client";
import { makeProvider } from "../../../../provider/operations/factory";
import { resource, toOutputs } from "../../../../provider/resources/service-event-rules-conversion";
import { virtualConsistency } from "../../support/virtual-consistency";

const calls: string[] = [];
const warnings: string[] = [];
let serviceExists = true;
/** POSTs that answer 404 first, as a service made a moment ago does while it is not visible yet. */
let hiddenFor = 0;
const reply = { convert_status: "completed", converted_to: { id: "PSVC1", type: "event_orchestration_service_reference", self: "x" } };

// A client that records its requests: the conversion makes no request this fake cannot answer.
const client = {
  request: async (method: string, path: string) => {
    calls.push(`${method} ${path}`);
    if (method === "POST" && hiddenFor > 0 && hiddenFor--)
      throw new ApiError({ method, path, status: 404, errors: [], response: { status: 404, headers: {}, body: null } });
    if (method === "POST") return reply;
    if (!serviceExists) throw new ApiError({ method, path, status: 404, errors: [], response: { status: 404, headers: {}, body: null } });
    return { service: { id: "PSVC1" } };
  },
  missingScopes: async () => [],
} as unknown as ApiClient;
const virtual = virtualConsistency();
const ctx = new AccountContext({ client, warn: (m) => void warnings.push(m), consistency: virtual.consistency });
const provider = makeProvider(resource, () => ctx);

beforeEach(() => {
  calls.length = 0;
  warnings.length = 0;
  serviceExists = true;
  hiddenFor = 0;
  virtual.waits.length = 0;
});

test("outputs of the verb reply", () => {
  expect(toOutputs("PSVC1", reply)).toEqual({
    service: "PSVC1",
    convertStatus: "completed",
    convertedTo: "PSVC1",
    convertedToType: "event_orchestration_service_reference",
  });
  // The description's reply: the orchestration's URL.
  expect(toOutputs("PSVC1", { convert_status: "completed", converted_to: "https://api.pagerduty.com/event_orchestrations/services/PSVC1" })).toMatchObject({
    convertedTo: "PSVC1",
    convertedToType: null,
  });
  expect(toOutputs("PSVC1", {})).toMatchObject({ convertStatus: "completed", convertedTo: null });
});

test("create calls the verb once; the id is the service", async () => {
  const r = await provider.create!({ service: "PSVC1", __provider: "p" });
  expect(calls).toEqual(["POST /services/PSVC1/rules/convert"]);
  expect(r).toMatchObject({ id: "PSVC1", outs: { convertStatus: "completed", convertedTo: "PSVC1" } });
});

test("the conversion of a service this process made a moment ago waits until the service answers", async () => {
  ctx.consistency.created("Service", "PYOUNG");
  hiddenFor = 3;
  await expect(provider.create!({ service: "PYOUNG", __provider: "p" })).resolves.toMatchObject({ id: "PYOUNG" });
  expect(calls).toEqual(Array(4).fill("POST /services/PYOUNG/rules/convert"));
  expect(virtual.waits).toHaveLength(3);
});

test("read never writes: it keeps the converted state while the service exists, and is gone with it", async () => {
  const outs = toOutputs("PSVC1", reply);
  await expect(provider.read!("PSVC1", outs)).resolves.toEqual({ id: "PSVC1", props: outs });
  serviceExists = false;
  await expect(provider.read!("PSVC1", outs)).resolves.toEqual({ id: "", props: {} });
  expect(calls.every((c) => c.startsWith("GET "))).toBe(true);
});

test("diff: the service replaces; nothing else is an input", async () => {
  const outs = toOutputs("PSVC1", reply);
  await expect(provider.diff!("PSVC1", outs, { service: "PSVC1", __provider: "p" })).resolves.toMatchObject({ changes: false });
  await expect(provider.diff!("PSVC1", outs, { service: "PSVC2" })).resolves.toMatchObject({ changes: true, replaces: ["service"] });
  await expect(provider.check!({}, { service: "" })).resolves.toMatchObject({ failures: [{ property: "", reason: "service: must be a service id" }] });
  await expect(provider.check!({}, { service: "PSVC1", undo: true })).resolves.toMatchObject({ failures: [{ reason: expect.stringContaining("undo") }] });
});

test("delete does not call the API and warns that the conversion stays", async () => {
  await provider.delete!("PSVC1", toOutputs("PSVC1", reply));
  expect(calls).toEqual([]);
  expect(warnings).toEqual([expect.stringMatching(/PSVC1.*cannot be undone.*only drops it from the Pulumi state/)]);
});
