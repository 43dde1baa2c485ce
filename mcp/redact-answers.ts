import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { redactDeepWithRuleSet, redactWithRuleSet } from '../server/ai/rule-set-redaction.js';

type Handler = (...args: unknown[]) => CallToolResult | Promise<CallToolResult>;

/**
 * Every tool of this server answers through the maintained rule set and the hand-kept rules,
 * its errors too: an error can quote report text (a branch name, a title) or a database address,
 * and it leaves for the same agent as an answer does. Tools registered after this call are wrapped.
 */
export function redactEveryAnswer(server: McpServer): McpServer {
  const register = server.registerTool.bind(server) as (name: string, config: unknown, handler: Handler) => unknown;
  const wrapped = (name: string, config: unknown, handler: Handler): unknown =>
    register(name, config, async (...args: unknown[]): Promise<CallToolResult> => {
      try {
        return await redactDeepWithRuleSet(await handler(...args));
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        return { content: [{ type: 'text', text: await redactWithRuleSet(message) }], isError: true };
      }
    });
  server.registerTool = wrapped as McpServer['registerTool'];
  return server;
}
