/**
 * Export PNG without a capture library (docs/screens.md#flaky-test-analysis): the chart's SVG is cloned with
 * its computed styles inlined — Mantine charts colour through CSS variables, which an SVG
 * drawn as an image cannot see — then drawn on a canvas and encoded as PNG.
 */

/** The browser cannot turn the SVG into a PNG (no canvas, no toBlob, or the image failed). */
export class PngUnavailableError extends Error {}

const STYLE_PROPERTIES = [
  'fill',
  'fill-opacity',
  'stroke',
  'stroke-width',
  'stroke-opacity',
  'stroke-dasharray',
  'stroke-linecap',
  'stroke-linejoin',
  'opacity',
  'visibility',
  'display',
  'font-family',
  'font-size',
  'font-weight',
  'text-anchor',
  'dominant-baseline',
] as const;

function inlineStyles(source: Element, target: Element): void {
  const computed = getComputedStyle(source);
  const style = STYLE_PROPERTIES.map((p) => `${p}:${computed.getPropertyValue(p)}`).join(';');
  target.setAttribute('style', style);
  const sourceChildren = source.children;
  const targetChildren = target.children;
  for (let i = 0; i < sourceChildren.length && i < targetChildren.length; i += 1) inlineStyles(sourceChildren[i]!, targetChildren[i]!);
}

function loadImage(url: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const image = new Image();
    image.onload = () => resolve(image);
    image.onerror = () => reject(new PngUnavailableError('the chart image could not be loaded'));
    image.src = url;
  });
}

export interface PngOptions {
  /** Drawn above the chart. */
  title: string;
  background: string;
  textColor: string;
  fontFamily: string;
}

const HEADER = 36;
const PADDING = 16;
const BLEED = 12;

export async function svgToPng(svg: SVGSVGElement, options: PngOptions): Promise<Blob> {
  const box = svg.getBoundingClientRect();
  // On screen the chart draws past its box (end dots, axis labels); as an image it would be cut.
  const width = box.width + BLEED * 2;
  const height = box.height + BLEED * 2;
  const clone = svg.cloneNode(true) as SVGSVGElement;
  inlineStyles(svg, clone);
  clone.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
  clone.setAttribute('width', String(width));
  clone.setAttribute('height', String(height));
  clone.setAttribute('viewBox', `${-BLEED} ${-BLEED} ${width} ${height}`);
  const markup = new XMLSerializer().serializeToString(clone);
  const url = URL.createObjectURL(new Blob([markup], { type: 'image/svg+xml;charset=utf-8' }));
  try {
    const image = await loadImage(url);
    const scale = Math.max(2, Math.ceil(window.devicePixelRatio || 1));
    const canvas = document.createElement('canvas');
    canvas.width = Math.ceil((width + PADDING * 2) * scale);
    canvas.height = Math.ceil((height + HEADER + PADDING * 2) * scale);
    const context = canvas.getContext('2d');
    if (!context || typeof canvas.toBlob !== 'function') throw new PngUnavailableError('no canvas');
    context.scale(scale, scale);
    context.fillStyle = options.background;
    context.fillRect(0, 0, width + PADDING * 2, height + HEADER + PADDING * 2);
    context.fillStyle = options.textColor;
    context.font = `600 15px ${options.fontFamily}`;
    context.textBaseline = 'middle';
    context.fillText(options.title, PADDING, PADDING + HEADER / 2, width);
    context.drawImage(image, PADDING, PADDING + HEADER, width, height);
    return await new Promise<Blob>((resolve, reject) => canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new PngUnavailableError('toBlob gave nothing'))), 'image/png'));
  } finally {
    URL.revokeObjectURL(url);
  }
}
