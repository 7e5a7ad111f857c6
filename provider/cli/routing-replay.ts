// pagerduty-routing-test replay: a placeholder until the subcommand lands (issue 54).
import { UsageError } from "./command-line";
import type { Command } from "./main";

const FLAGS = {} as const;

export const ROUTING_REPLAY: Command<typeof FLAGS, Record<string, never>> = {
  bin: "pagerduty-routing-test replay",
  help: "usage: pagerduty-routing-test replay",
  flags: FLAGS,
  options: () => {
    throw new UsageError("not yet available");
  },
  run: async () => 2,
};
