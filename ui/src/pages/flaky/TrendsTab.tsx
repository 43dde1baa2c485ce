import { Button, Group, RangeSlider, SegmentedControl, Stack, Text } from '@mantine/core';
import { useRef, useState } from 'react';
import type { DailyStat } from '../../../../core/api/analytics.js';
import { PageStates } from '../../components/PageState.js';
import { usePhone } from '../../lib/use-phone.js';
import { PngUnavailableError, svgToPng } from './chart-png.js';
import { DAY_RANGES, SLIDER_MIN_DAYS, statsInRange, type DayRange } from './daily-range.js';
import { downloadBlob } from './download.js';
import { trendsCsv } from './trend-csv.js';
import { trendsFileName } from './trend-export-names.js';
import { TrendAnalysisPanel } from './TrendAnalysisPanel.js';
import { PassRateHistoryCharts } from './PassRateHistoryCharts.js';

export const GRAPH_NOT_FOUND = 'Graph not found. Please make sure the trends tab is open.';
export const PNG_UNAVAILABLE = 'PNG export requires html2canvas library. Please take a screenshot manually or install the library.';

/** Daily pass rate of one test on one browser, with range, slider, analysis and exports. Stats undefined while loading. */
export function TrendsTab({ title, browser, stats }: { title: string; browser: string; stats: DailyStat[] | undefined }) {
  const [range, setRange] = useState<DayRange>('all');
  // Four ranges side by side need about 360 px: a phone's dialog cut 'All' off, so they stack there.
  const phone = usePhone();
  const [dayWindow, setWindow] = useState<[number, number] | null>(null);
  const [today] = useState(() => new Date());
  const chartRef = useRef<HTMLDivElement>(null);

  const inRange = statsInRange(stats ?? [], range, today);
  const last = Math.max(0, inRange.length - 1);
  const [from, to] = dayWindow ? [Math.min(dayWindow[0], last), Math.min(dayWindow[1], last)] : [0, last];
  const days = inRange.slice(from, to + 1);

  const exportCsv = () => downloadBlob(new Blob([trendsCsv(days)], { type: 'text/csv;charset=utf-8' }), trendsFileName(title, browser, 'csv'));

  const exportPng = async () => {
    const svg = chartRef.current?.querySelector<SVGSVGElement>('svg.recharts-surface');
    if (!svg || svg.getBoundingClientRect().width === 0) {
      window.alert(GRAPH_NOT_FOUND);
      return;
    }
    const page = getComputedStyle(document.body);
    try {
      const png = await svgToPng(svg, { title: `${title} (${browser}): daily pass rate`, background: page.backgroundColor, textColor: page.color, fontFamily: page.fontFamily });
      downloadBlob(png, trendsFileName(title, browser, 'png'));
    } catch (error) {
      if (!(error instanceof PngUnavailableError)) console.error(error);
      window.alert(PNG_UNAVAILABLE);
    }
  };

  return (
    <Stack gap="md" data-testid="trends-tab">
      <Group justify="space-between" wrap="wrap">
        <SegmentedControl
          size="xs"
          orientation={phone ? 'vertical' : 'horizontal'}
          fullWidth={phone}
          aria-label="Range"
          value={range}
          onChange={(value) => {
            setRange(value as DayRange);
            setWindow(null);
          }}
          data={DAY_RANGES.map((r) => ({ value: r.value, label: r.label }))}
        />
        <Group gap="xs">
          <Button size="xs" variant="default" onClick={exportCsv} disabled={stats === undefined}>
            Export CSV
          </Button>
          <Button size="xs" variant="default" onClick={() => void exportPng()} disabled={stats === undefined}>
            Export PNG
          </Button>
        </Group>
      </Group>
      <PageStates
        loading={stats === undefined ? 'Loading daily statistics...' : null}
        empty={inRange.length === 0 ? { title: stats?.length === 0 ? 'No daily statistics available for this test.' : 'No runs in the selected period.', testId: 'trends-empty' } : null}
      >
        <>
          {inRange.length >= SLIDER_MIN_DAYS && (
            <div data-testid="day-slider">
              <Text size="xs" c="dimmed" mb={4}>
                Days shown: {days[0]?.date} to {days[days.length - 1]?.date} ({days.length} of {inRange.length})
              </Text>
              <RangeSlider
                min={0}
                max={last}
                step={1}
                minRange={1}
                value={[from, to]}
                onChange={setWindow}
                label={(i) => inRange[i]?.date}
                thumbFromLabel="First day shown"
                thumbToLabel="Last day shown"
                mx="xs"
                mb="sm"
              />
            </div>
          )}
          <PassRateHistoryCharts days={days} chartRef={chartRef} />
          <TrendAnalysisPanel passRatesPercent={days.map((d) => d.pass_rate * 100)} />
        </>
      </PageStates>
    </Stack>
  );
}
