// The deployment this provider process serves. The SDK's serialized providers pass the stack's
// fully qualified name to configure (a create receives only inputs, never the URN or the stack), so
// the provider can read the stack's own state when a create needs it (stack-state.ts).
import { StackState, type Exporter } from "./stack-state";

let state: StackState | undefined;

/** Records the stack named by the program; the first name wins (one process serves one deployment). */
export function setStack(stack: string | undefined, exporter?: Exporter): void {
  if (!stack || state?.stack === stack) return;
  if (!state) state = new StackState(stack, exporter);
}

/** The stack's state, when the program named its stack. */
export function stackState(): StackState | undefined {
  return state;
}

/** Forgets the deployment (tests). */
export function resetDeployment(): void {
  state = undefined;
}
