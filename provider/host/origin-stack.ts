// The stack's name as the program sends it: appended to `__origin` (`<hash>@<org>/<project>/<stack>`,
// sdk/origin.ts), since nothing the engine hands the dynamic-provider process names the stack with
// its organization. Check takes it off, so the state, and every later call, sees the hash alone.
import type * as dynamic from "@pulumi/pulumi/dynamic";

const ORIGIN = "__origin";

/** `news` with `__origin` reduced to its hash, and the stack it named (if any). */
export function splitOrigin(news: Record<string, unknown> | undefined): { news: Record<string, unknown> | undefined; stack?: string } {
  const origin = news?.[ORIGIN];
  if (typeof origin !== "string") return { news };
  const at = origin.indexOf("@");
  if (at < 0) return { news };
  const stack = origin.slice(at + 1);
  return { news: { ...news, [ORIGIN]: origin.slice(0, at) }, stack: stack || undefined };
}

/** `provider` whose check hands the stack a program names to `nameStack` and passes the rest on. */
export function namingStack<P extends dynamic.ResourceProvider>(provider: P, nameStack: (stack: string) => void): P {
  const check = provider.check;
  if (!check) return provider;
  return {
    ...provider,
    check: (olds: unknown, raw: unknown) => {
      const { news, stack } = splitOrigin(raw as Record<string, unknown> | undefined);
      if (stack) nameStack(stack);
      return check.call(provider, olds, news);
    },
  };
}
