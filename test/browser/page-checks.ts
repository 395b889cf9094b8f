// What a person with large text or dark mode checks on a page, measured in the browser: the text-size
// setting of the browser itself, sideways scrolling, words cut across two lines, and the contrast of
// every piece of text against what is behind it.
import type { BrowserContext, Page } from 'playwright-core';

/**
 * A page whose browser is set to show text at `percent` of its usual size, as a user sets it (the
 * default font size, 16 px at 100 %): everything sized in rem or em grows, the screen does not.
 */
export async function pageWithTextSize(context: BrowserContext, percent: number): Promise<Page> {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Page.setFontSizes', {
    fontSizes: { standard: Math.round((16 * percent) / 100), fixed: Math.round((13 * percent) / 100) },
  });
  return page;
}

export interface Reflow {
  /** The root font size the page got, e.g. "32px" at 200 %. */
  fontSize: string;
  scrollWidth: number;
  clientWidth: number;
  /** Words of the page split across two lines, each as "word (element)". */
  brokenWords: string[];
}

/**
 * How the page fits the screen's width: its scroll width, and the words broken in the middle (a word
 * that wraps at one of its own letters, as "e-" then "mail") although the page's column could hold it
 * on one line. Words that may break are left out: those with a hyphen-minus or a slash, e-mail
 * addresses, and anything longer than 20 characters or in code.
 */
export async function reflowOf(page: Page): Promise<Reflow> {
  return page.evaluate(() => {
    const column = document.querySelector('main') ?? document.body;
    const style = getComputedStyle(column);
    const columnWidth = column.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    const brokenWords: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode() as Text | null; node; node = walker.nextNode() as Text | null) {
      const parent = node.parentElement;
      if (!parent || parent.closest('code, pre, script, style, [hidden]')) continue;
      for (const match of node.data.matchAll(/\S+/g)) {
        const word = match[0];
        if (word.length > 20 || /[-/@]/.test(word)) continue;
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + word.length);
        const rects = [...range.getClientRects()].filter((r) => r.width > 0);
        const lines = new Set(rects.map((r) => Math.round(r.bottom)));
        const width = rects.reduce((sum, r) => sum + r.width, 0);
        if (lines.size > 1 && width <= columnWidth) brokenWords.push(`${word} (${parent.tagName.toLowerCase()}.${parent.className})`);
      }
    }
    const root = document.documentElement;
    return { fontSize: getComputedStyle(root).fontSize, scrollWidth: root.scrollWidth, clientWidth: root.clientWidth, brokenWords };
  });
}

/**
 * Text whose contrast with the colour behind it is under WCAG AA (4.5:1, or 3:1 for large text), each as
 * "text: ratio (colour on background)". The background is the first opaque one among the element and its
 * ancestors; disabled controls are exempt, as WCAG says.
 */
export async function lowContrast(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const rgb = (css: string) => {
      const m = css.match(/rgba?\(([\d.]+),? ([\d.]+),? ([\d.]+)(?:,? \/? ?([\d.]+))?\)/);
      return m ? { r: +m[1], g: +m[2], b: +m[3], a: m[4] === undefined ? 1 : +m[4] } : { r: 0, g: 0, b: 0, a: 0 };
    };
    const luminance = ({ r, g, b }: { r: number; g: number; b: number }) => {
      const c = [r, g, b].map((v) => {
        const s = v / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
    };
    const background = (el: Element | null) => {
      for (; el; el = el.parentElement) {
        const bg = rgb(getComputedStyle(el).backgroundColor);
        if (bg.a >= 1) return bg;
      }
      return rgb(getComputedStyle(document.documentElement).backgroundColor || 'rgb(255, 255, 255)');
    };
    const low: string[] = [];
    for (const el of document.body.querySelectorAll<HTMLElement>('*')) {
      const text = [...el.childNodes]
        .filter((n) => n.nodeType === Node.TEXT_NODE)
        .map((n) => n.textContent ?? '')
        .join('')
        .trim();
      if (!text || el.closest('[hidden]') || (el as HTMLButtonElement).disabled) continue;
      const style = getComputedStyle(el);
      if (style.display === 'none' || style.visibility === 'hidden' || el.getClientRects().length === 0) continue;
      const fg = rgb(style.color);
      const bg = background(el);
      const [l1, l2] = [luminance(fg), luminance(bg)].sort((a, b) => b - a);
      const ratio = (l1 + 0.05) / (l2 + 0.05);
      const size = parseFloat(style.fontSize);
      const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
      if (ratio < (large ? 3 : 4.5))
        low.push(`${text.slice(0, 40)}: ${ratio.toFixed(2)} (${style.color} on rgb(${bg.r}, ${bg.g}, ${bg.b}))`);
    }
    return low;
  });
}
