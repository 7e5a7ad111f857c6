// getAlertGroupingSetting: the alert grouping setting with exactly this name. Names are not unique
// here (the API allows two settings of one name): a repeated name is reported, not guessed.
import { z } from "zod";
import type { Lookup } from "../operations/lookup";
import { defineLookup, documentedOutputs, named } from "../kernel/define";
import { type ApiSetting, definition as settingDefinition, settingsOf, toOutputs } from "../resources/alert-grouping-setting";
import { idOf, nameArg } from "./fields";
import { DEPENDS_ON_HINT, listedByName, type Named } from "./find";

export const definition = defineLookup({
  functionName: "getAlertGroupingSetting",
  query: "alertGroupingSetting",
  description:
    "The alert grouping setting with exactly this name (case-sensitive); fails when two settings share it. " +
    "Pass an `AlertGroupingSetting` the same program declares in `dependsOn`.",
  args: z.object({ name: nameArg("The setting's name, exactly (case-sensitive).") }).strict(),
  result: named(
    "AlertGroupingSettingLookupResult",
    // The input's text ("Unset: not managed") is about declaring one, not reading it.
    documentedOutputs(settingDefinition).extend({
      id: idOf("alert grouping setting"),
      description: z.string().nullable().describe("The setting's description, if it has one."),
    }),
  ),
});

export const lookup: Lookup<typeof definition> = {
  definition,
  async run(ctx, { name }) {
    // listAlertGroupingSettings needs only `services.read`, as the API description says.
    const settings = async () => (await settingsOf(ctx.client)) as Array<ApiSetting & Named>;
    const g = await listedByName(ctx, "AlertGroupingSetting", settings, name, "alert grouping setting", { hint: DEPENDS_ON_HINT });
    return { id: g.id, ...toOutputs(g) };
  },
};
