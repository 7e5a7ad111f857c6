// Shared by the auth and http unit tests: undici's MockAgent as the injected transport, with the
// network disabled and every declared interceptor required to have been used.
import { MockAgent } from "undici";

/** Registers the hooks; call the returned function inside a test for the current agent. */
export function useMockAgent(): () => MockAgent {
  let agent: MockAgent;
  beforeEach(() => {
    agent = new MockAgent();
    agent.disableNetConnect();
  });
  afterEach(async () => {
    agent.assertNoPendingInterceptors();
    await agent.close();
  });
  return () => agent;
}
