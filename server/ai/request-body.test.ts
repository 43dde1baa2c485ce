import { describe, expect, it } from 'vitest';
import { AI_REQUEST_LIMITS } from '../../core/api/ai-limits.js';
import { checkAnalysisRequest, parseAnalysisRequest } from './request-body.js';

const summary = { testTitle: 'adds to cart', browser: 'chromium' };

describe("the AI request's check (run in the analysis worker)", () => {
  it('fills the defaults and reads a figure sent as text, as the validator it replaces did', () => {
    const request = checkAnalysisRequest({ testSummary: { ...summary, totalRuns: '12' }, recentResults: [{ status: 'failed', duration: '1.2s' }] });
    expect(request.testSummary).toEqual({ ...summary, passRate: 0, totalRuns: 12, failedRuns: 0 });
    expect(request.recentResults[0]!.duration).toBe('1.2s');
  });

  it('names the first problem by its path', () => {
    const check = (value: unknown) => () => checkAnalysisRequest(value);
    expect(check([])).toThrow('Invalid request: body must be object');
    expect(check({ testSummary: summary, recentResults: [{ status: 'failed', prompt: 'x' }] })).toThrow('Invalid request: unknown property "recentResults[0].prompt"; allowed there: status, duration,');
    expect(check({ testSummary: { ...summary, totalRuns: 1.5 }, recentResults: [] })).toThrow('Invalid request: body/testSummary/totalRuns must be integer');
    expect(check({ testSummary: summary, recentResults: [{ status: 'failed', duration: true }] })).toThrow('Invalid request: body/recentResults/0/duration must match a schema in anyOf');
    expect(check({ testSummary: summary, recentResults: Array.from({ length: 201 }, () => ({ status: 'passed' })) })).toThrow('Invalid request: body/recentResults must NOT have more than 200 items');
  });

  it('counts a length in characters (code points), as JSON Schema does', () => {
    const emoji = '😀'.repeat(AI_REQUEST_LIMITS.title);
    expect(checkAnalysisRequest({ testSummary: { ...summary, testTitle: emoji }, recentResults: [] }).testSummary.testTitle).toBe(emoji);
    expect(() => checkAnalysisRequest({ testSummary: { ...summary, testTitle: `${emoji}x` }, recentResults: [] })).toThrow(`body/testSummary/testTitle must NOT have more than ${AI_REQUEST_LIMITS.title} characters`);
  });

  it('parses the bytes by their charset and refuses a poisoning key by name', () => {
    const text = JSON.stringify({ testSummary: summary, recentResults: [] });
    const utf16 = Buffer.from(`\ufeff${text}`, 'utf16le');
    expect(parseAnalysisRequest(utf16, null).testSummary.testTitle).toBe('adds to cart');
    expect(() => parseAnalysisRequest(Buffer.from('{"__proto__": {}}'), 'utf-8')).toThrow('Invalid JSON: the body contains a forbidden __proto__ or constructor key');
  });
});
