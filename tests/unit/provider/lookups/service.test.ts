import { lookup } from "../../../../provider/lookups/service";
import { checkOf } from "../../support/lookup-api";
import { reply, useApi } from "../../support/resource-api";

const api = useApi();
const check = checkOf(api, lookup);
const svc = (id: string, name: string) => ({
  id,
  type: "service",
  name,
  description: null,
  escalation_policy: { id: "PEP" },
  status: "active",
  html_url: `https://x/${id}`,
});

test("matches the name exactly across pages and maps the service", async () => {
  reply(api, "GET", "/services?query=Checkout&limit=100&offset=0", { services: [svc("P1", "Checkout API")], more: true, limit: 1, offset: 0 });
  reply(api, "GET", "/services?query=Checkout&limit=100&offset=1", { services: [svc("P2", "Checkout")], more: false });
  const r = await check({ name: "Checkout" });
  expect(r.failures).toBeUndefined();
  expect(r.inputs.result).toMatchObject({ id: "P2", name: "Checkout", description: "", escalationPolicy: "PEP", htmlUrl: "https://x/P2" });
  expect(r.inputs.__provider).toBe("p");
});

test("a missing service is a failure naming the name", async () => {
  reply(api, "GET", "/services?query=checkout&limit=100&offset=0", { services: [svc("P2", "Checkout")], more: false });
  await expect(check({ name: "checkout" })).resolves.toMatchObject({
    failures: [
      {
        property: "",
        reason: 'args.name: no service is named "checkout" (names match exactly, including case; if this program creates it, pass the service in dependsOn)',
      },
    ],
  });
});
