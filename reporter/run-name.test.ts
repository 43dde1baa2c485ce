import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../fixtures/testing/temp.js';
import { projectNameAt, runName } from './run-name.js';

let temp: ReturnType<typeof makeTempDir>;
beforeEach(() => {
  temp = makeTempDir('flakeboard-run-name-');
});
afterEach(() => temp.cleanup());

describe('runName', () => {
  it('says what the run is: project, branch, build and shard, leaving out what is unknown', () => {
    expect(runName({ project: 'shop-web', branch: 'feature/login', buildId: '4242', shard: { current: 1, total: 2 } })).toBe('shop-web · feature/login · build 4242 · shard 1/2');
    expect(runName({ project: 'shop-web', branch: null, buildId: null, shard: null })).toBe('shop-web');
    expect(runName({ project: ' ', branch: 'main', buildId: '', shard: null })).toBe('main');
    expect(runName({ project: null, branch: null, buildId: null, shard: null })).toBe('Playwright run');
    expect(runName({ project: 'p'.repeat(300), branch: null, buildId: null, shard: null })).toHaveLength(255);
  });
});

describe('projectNameAt', () => {
  it('takes the nearest package.json name above the tests, else the folder, and reads past a broken package.json', () => {
    const app = join(temp.dir, 'shop', 'e2e');
    mkdirSync(app, { recursive: true });
    expect(projectNameAt(app)).toBe('e2e');
    writeFileSync(join(temp.dir, 'shop', 'package.json'), JSON.stringify({ name: 'shop-web' }));
    expect(projectNameAt(app)).toBe('shop-web');
    writeFileSync(join(app, 'package.json'), '{ not json');
    expect(projectNameAt(app)).toBe('shop-web');
  });
});
