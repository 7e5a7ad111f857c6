import { CONFIG_KEYS } from "../../../provider/config";
import { CONFIG_SETTINGS, configKey, settingsGetter } from "../../../plugin/config";

test("the package's settings are exactly the dynamic providers' settings and the accounts", () => {
  expect(CONFIG_SETTINGS.map((s) => s.name).sort()).toEqual([...Object.keys(CONFIG_KEYS), "accounts"].sort());
});

test("the package's keys read the values Configure names in the old and the short forms", () => {
  const get = settingsGetter(
    new Map([
      ["pagerduty-dynamic:config:clientId", "abc"],
      ["pagerduty-dynamic:subdomain", "acme"],
    ]),
  );
  expect(get("pagerduty-dynamic:clientId")).toBe("abc");
  expect(get("pagerduty-dynamic:subdomain")).toBe("acme");
  expect(get("pagerduty-dynamic:clientSecret")).toBeUndefined();
  // @pulumi/pagerduty's keys are never read.
  expect(settingsGetter(new Map([["pagerduty:config:clientId", "theirs"]]))("pagerduty-dynamic:clientId")).toBeUndefined();
  expect(settingsGetter(new Map([["pagerduty:config:clientId", "theirs"]]))("pagerduty:clientId")).toBeUndefined();
  expect(configKey("token")).toBe("pagerduty-dynamic:token");
});
