import { createHash } from 'node:crypto';
import sharp from 'sharp';

export const COVER_WIDTH = 400;
export const COVER_HEIGHT = 600;

const PALETTES = [
  ['#0f4c5c', '#e36414', '#fb8b24'],
  ['#2d1e2f', '#b9375e', '#f2a65a'],
  ['#143d2b', '#5f8d4e', '#e9c46a'],
  ['#1d3557', '#457b9d', '#f1faee'],
  ['#3c1642', '#086375', '#1dd3b0'],
  ['#582f0e', '#936639', '#ffe8d6'],
  ['#22223b', '#9a8c98', '#f2e9e4'],
  ['#5e0b15', '#90323d', '#d9cab3'],
];

const escapeXml = (s: string) =>
  s.replace(
    /[<>&'"]/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!,
  );

/** Splits a title into lines of about `width` characters, on spaces. */
const wrap = (text: string, width: number) => {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line && (line + ' ' + word).length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines.slice(0, 5);
};

/** Draws a story cover (layered hills, a sun, the title and author) as a PNG. */
export async function renderCover(input: {
  key: string;
  title: string;
  author: string;
}): Promise<Buffer> {
  const hash = createHash('sha256').update(input.key).digest();
  const [deep, mid, light] = PALETTES[hash[0]! % PALETTES.length]!;
  const sunX = 80 + (hash[1]! % 240);
  const sunY = 120 + (hash[2]! % 120);
  const hills = [0, 1, 2]
    .map((i) => {
      const base = 380 + i * 70;
      const a = hash[3 + i]! % 90;
      const b = hash[6 + i]! % 90;
      return `<path d="M0 ${base - a} C 120 ${base - 120 + b}, 260 ${base + 40 - a}, 400 ${base - b} L400 600 L0 600 Z" fill="${i === 2 ? deep : mid}" opacity="${0.55 + i * 0.2}"/>`;
    })
    .join('');
  const lines = wrap(input.title, 16);
  const title = lines
    .map((l, i) => `<text x="32" y="${70 + i * 44}" class="t">${escapeXml(l)}</text>`)
    .join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${COVER_WIDTH}" height="${COVER_HEIGHT}">
  <defs><linearGradient id="g" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${light}"/><stop offset="1" stop-color="${mid}"/></linearGradient>
  <style>.t{font:700 36px 'Noto Sans Sinhala','Noto Sans',sans-serif;fill:${deep}}.a{font:400 22px 'Noto Sans Sinhala','Noto Sans',sans-serif;fill:#fff}</style></defs>
  <rect width="400" height="600" fill="url(#g)"/>
  <circle cx="${sunX}" cy="${sunY + 150}" r="${50 + (hash[9]! % 40)}" fill="#fff" opacity="0.35"/>
  ${hills}${title}
  <text x="32" y="565" class="a">${escapeXml(input.author)}</text>
</svg>`;
  return sharp(Buffer.from(svg))
    .png({ palette: true, quality: 90, compressionLevel: 9 })
    .toBuffer();
}
