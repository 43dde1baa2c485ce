import { describe, expect, it } from 'vitest';
import { csvCell, trendsCsv } from './trend-csv.js';
import { safeFileNamePart, trendsFileName } from './trend-export-names.js';

describe('csvCell', () => {
  it('neutralises cells a spreadsheet would run as a formula', () => {
    expect(csvCell('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('-1+2')).toBe("'-1+2");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\tcmd')).toBe("'\tcmd");
  });

  it('leaves ordinary cells alone and quotes commas, quotes and line breaks', () => {
    expect(csvCell('2026-11-20')).toBe('2026-11-20');
    expect(csvCell(87.5)).toBe('87.5');
    expect(csvCell('a=b')).toBe('a=b');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
  });
});

describe('trendsCsv', () => {
  it('has exactly the documented header (docs/screens.md#flaky-test-analysis) and one row per day', () => {
    const csv = trendsCsv([{ date: '2026-11-20', pass_rate: 0.3333333, total_runs: 3, passed_runs: 1, failed_runs: 2, avg_duration: 486.66 }]);
    expect(csv).toBe('Date,Pass Rate (%),Total Runs,Passed,Failed,Avg Duration (ms)\r\n2026-11-20,33.3,3,1,2,487\r\n');
  });

  it('is the header alone without days', () => {
    expect(trendsCsv([])).toBe('Date,Pass Rate (%),Total Runs,Passed,Failed,Avg Duration (ms)\r\n');
  });
});

describe('trendsFileName', () => {
  it('is the title plus the browser plus _trends.csv', () => {
    expect(trendsFileName('applies the product gallery', 'chromium', 'csv')).toBe('applies_the_product_gallery_chromium_trends.csv');
  });

  it('keeps path separators and markup out of the name', () => {
    expect(trendsFileName('../../etc/passwd', 'chromium', 'png')).toBe('etc_passwd_chromium_trends.png');
    expect(safeFileNamePart('<img src=x onerror="x">')).toBe('img_src_x_onerror_x');
    expect(safeFileNamePart('...')).toBe('test');
    expect(safeFileNamePart(`${'a'.repeat(99)} b`)).toBe('a'.repeat(99));
    expect(safeFileNamePart('x'.repeat(300))).toHaveLength(100);
  });
});
