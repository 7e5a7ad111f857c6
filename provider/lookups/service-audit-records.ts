// getServiceAuditRecords: a service's audit records in a window of at most 31 days, every cursor
// page read.
import { z } from "zod";
import type { Lookup } from "../operations/lookup";
import { AUDIT_READ, auditRecordsPath } from "../kernel/api-paths";
import { fromApi } from "../kernel/case";
import { defineLookup, named } from "../kernel/define";
import { listCursor, MAX_PAGE } from "../kernel/pages";
import { idOf, serviceArg } from "./fields";
import { underService } from "./find";

const DAY_MS = 86_400_000;

const isoTime = z.string().refine((s) => !Number.isNaN(Date.parse(s)), "must be an ISO 8601 date-time");

const args = z
  .object({
    service: serviceArg,
    since: isoTime.optional().describe("ISO 8601 start of the window (API default: 24 hours ago)."),
    until: isoTime.optional().describe("ISO 8601 end of the window, at most 31 days after `since` (API default: now)."),
    limit: z.number().int().min(1).max(MAX_PAGE).optional().describe(`Page size (1..${MAX_PAGE}); every page is read, following the cursor.`),
  })
  .strict()
  .superRefine((a, ctx) => {
    if (a.since === undefined || a.until === undefined) return;
    const span = Date.parse(a.until) - Date.parse(a.since);
    if (span <= 0) ctx.addIssue({ code: "custom", path: ["until"], message: 'must be after "since"' });
    else if (span > 31 * DAY_MS) ctx.addIssue({ code: "custom", path: ["until"], message: 'may be at most 31 days after "since"' });
  });

const record = named(
  "AuditRecordLookup",
  z
    .object({
      id: idOf("record"),
      executionTime: z.string().describe("When the change was made (ISO 8601)."),
      action: z.string().describe('What was done, e.g. "create" or "update".'),
      actors: z.array(z.record(z.unknown())).optional().describe("Who made the change."),
      method: z
        .object({
          type: z.string().describe('How the change was made, e.g. "api_token" or "oauth".'),
          truncatedToken: z.string().optional().describe("The last characters of the credential used."),
        })
        .optional()
        .describe("How the change was made."),
      rootResource: z.record(z.unknown()).optional().describe("The object the record belongs to (the service)."),
      details: z
        .object({
          resource: z.record(z.unknown()).optional().describe("The object that changed."),
          fields: z
            .array(
              z.object({
                name: z.string().describe("The field's name."),
                value: z.string().optional().describe("Its value after the change."),
                beforeValue: z.string().optional().describe("Its value before the change."),
              }),
            )
            .optional()
            .describe("The fields that changed."),
          references: z.array(z.unknown()).optional().describe("Objects the change referenced."),
        })
        .optional()
        .describe("What changed."),
    })
    .passthrough(),
);

export const definition = defineLookup({
  functionName: "getServiceAuditRecords",
  query: "serviceAuditRecords",
  description: "Audit records of a service in the window, newest first.",
  args,
  argsType: "ServiceAuditRecordsArgs",
  result: z.object({ records: z.array(record).describe("The audit records in the window, newest first.") }),
});

export const lookup: Lookup<typeof definition> = {
  definition,
  async run(ctx, { service, since, until, limit }) {
    const records = await underService(ctx, service, () =>
      listCursor<Record<string, unknown>>(ctx.client, auditRecordsPath(service), "records", AUDIT_READ, { since, until }, limit),
    );
    return { records: records.map((r) => fromApi<z.output<typeof record>>(r)) };
  },
};
