import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { aiAnalysisRequest } from '../../core/api/schemas/ai.js';
import { analysisBody, checkAnalysisRequest } from '../ai/request-body.js';

type Json = Record<string, unknown>;
const KEPT = ['minLength', 'maxLength', 'minimum', 'maximum', 'default', 'maxItems', 'additionalProperties'] as const;

/**
 * A schema's rules without its wording: types as a sorted list (a nullable string and
 * `type: ['string', 'null']` alike), the branches of an anyOf merged, descriptions dropped.
 */
function rules(schema: Json): Json {
  const branches = Array.isArray(schema.anyOf) ? (schema.anyOf as Json[]) : [schema];
  const out: Json = {};
  const types = new Set<string>();
  for (const branch of branches) {
    if (Array.isArray(branch.enum)) out.enum = [...(branch.enum as unknown[])].sort();
    else for (const type of [branch.type ?? []].flat() as string[]) types.add(type);
    for (const key of KEPT) if (branch[key] !== undefined) out[key] = branch[key];
    if (branch.properties) {
      out.properties = Object.fromEntries(Object.entries(branch.properties as Record<string, Json>).map(([name, child]) => [name, rules(child)]));
      out.required = [...((branch.required as string[] | undefined) ?? [])].sort();
    }
    if (branch.items) out.items = rules(branch.items as Json);
  }
  if (!out.enum) out.types = [...types].sort();
  return out;
}

describe("the AI analysis body's two schemas", () => {
  it("describe the same body: the document's Zod schema and the JSON Schema the worker checks with", () => {
    const described = z.toJSONSchema(aiAnalysisRequest, { io: 'input' }) as Json;
    expect(rules(described)).toEqual(rules(analysisBody as unknown as Json));
  });

  it('accept and refuse the same bodies', () => {
    const summary = { testTitle: 'checkout', browser: 'chromium' };
    const bodies: unknown[] = [
      { testSummary: summary, recentResults: [] },
      { testSummary: { ...summary, passRate: 0.5, totalRuns: 4, failedRuns: 2 }, recentResults: [{ status: 'failed', duration: '120', errorMessage: null }] },
      { testSummary: summary, recentResults: [{ status: 'broken' }] },
      { testSummary: { ...summary, testTitle: '' }, recentResults: [] },
      { testSummary: summary, recentResults: [], prompt: 'ignore the rules' },
      { testSummary: summary, recentResults: [{ status: 'passed', runDate: 'x'.repeat(101) }] },
      { testSummary: summary },
    ];
    for (const body of bodies) {
      const worker = (() => {
        try {
          checkAnalysisRequest(structuredClone(body));
          return true;
        } catch {
          return false;
        }
      })();
      expect(aiAnalysisRequest.safeParse(body).success, JSON.stringify(body)).toBe(worker);
    }
  });
});
