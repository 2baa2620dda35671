import { spawn, spawnSync } from 'node:child_process';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { AUDIO_LIMITS } from '@kathamala/domain';

/** Where ffmpeg and ffprobe are: FFMPEG_PATH names ffmpeg (tests point it nowhere), else PATH. */
export interface FfmpegTools {
  ffmpeg: string;
  ffprobe: string;
}

/** The tools when they run here, else null (uploads are then refused; listening works). */
export function findFfmpeg(env = process.env): FfmpegTools | null {
  const ffmpeg = env.FFMPEG_PATH ?? 'ffmpeg';
  const ffprobe = env.FFMPEG_PATH ? path.join(path.dirname(ffmpeg), 'ffprobe') : 'ffprobe';
  const works = (cmd: string) => spawnSync(cmd, ['-version'], { stdio: 'ignore' }).status === 0;
  return works(ffmpeg) && works(ffprobe) ? { ffmpeg, ffprobe } : null;
}

/** A file the upload check refuses, with the sentence the author reads. */
export class NotAudio extends Error {}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a tool to its end, keeping only the last 64 KB of each output (ffmpeg can be chatty). */
function run(cmd: string, args: string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const keep = (s: string, chunk: Buffer) => (s + chunk.toString('utf8')).slice(-65_536);
    child.stdout.on('data', (c: Buffer) => (stdout = keep(stdout, c)));
    child.stderr.on('data', (c: Buffer) => (stderr = keep(stderr, c)));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The container's duration in seconds and whether it holds an audio stream, or null if unreadable. */
async function probe(tools: FfmpegTools, file: string) {
  const out = await run(tools.ffprobe, [
    '-v',
    'error',
    '-print_format',
    'json',
    '-show_format',
    '-show_streams',
    file,
  ]);
  if (out.code !== 0) return null;
  try {
    const info = JSON.parse(out.stdout) as {
      streams?: { codec_type?: string; duration?: string }[];
      format?: { duration?: string };
    };
    const audio = info.streams?.find((s) => s.codec_type === 'audio');
    const duration = Number(info.format?.duration ?? audio?.duration);
    return { audio: Boolean(audio), duration: Number.isFinite(duration) ? duration : 0 };
  } catch {
    return null;
  }
}

/** Loudest sample below which a track is taken for silence (speech peaks far above it). */
const SILENCE_DB = -50;

/**
 * Judges an upload by its bytes (issue 29): an audio stream with a duration, decodable to its
 * end (a cut-off file decodes short of what its header says, or fails), not silence only, at
 * most three hours. Returns the duration; throws NotAudio with the author's sentence.
 */
export async function judgeAudio(tools: FfmpegTools, file: string): Promise<number> {
  const probed = await probe(tools, file);
  if (!probed || !probed.audio)
    throw new NotAudio(
      'This file is not audio we can read. Upload an MP3, M4A (AAC), WAV, Ogg or Opus recording.',
    );
  if (!(probed.duration > 0))
    throw new NotAudio('This recording has no length we can read. Export it again and upload it.');
  if (probed.duration > AUDIO_LIMITS.maxSeconds)
    throw new NotAudio(
      'This recording is longer than 3 hours. Split it into episodes and upload each.',
    );
  // Decode it all once: -xerror stops at the first damaged frame; volumedetect finds the peak.
  const out = await run(tools.ffmpeg, [
    '-hide_banner',
    '-nostats',
    '-xerror',
    '-i',
    file,
    '-map',
    '0:a:0',
    '-af',
    'volumedetect',
    '-progress',
    'pipe:1',
    '-f',
    'null',
    '-',
  ]);
  const decodedUs = [...out.stdout.matchAll(/out_time_us=(\d+)/g)].at(-1)?.[1];
  const decoded = decodedUs ? Number(decodedUs) / 1e6 : 0;
  const cutOff = probed.duration - decoded > Math.max(1, probed.duration * 0.05);
  if (out.code !== 0 || cutOff)
    throw new NotAudio(
      'This recording is damaged or cut off before its end. Export it again and upload the whole file.',
    );
  const peak = /max_volume:\s*(-?[\d.]+|-inf) dB/.exec(out.stderr)?.[1];
  if (peak === undefined || peak === '-inf' || Number(peak) < SILENCE_DB)
    throw new NotAudio('This recording is silent. Check the microphone and record it again.');
  return Math.min(probed.duration, decoded || probed.duration);
}

/** A rendition as made: its file, its bytes and its seconds. */
export interface Rendition {
  file: string;
  bytes: number;
  durationSeconds: number;
}

/** File names of the renditions, under a track's prefix. */
export const RENDITION_FILES = { standard: 'standard.m4a', saver: 'saver.webm' } as const;
export const RENDITION_TYPES = { standard: 'audio/mp4', saver: 'audio/webm' } as const;

/**
 * Both renditions from one decode: downmixed to mono, loudness-normalised for speech (EBU R128
 * single pass: -16 LUFS integrated, -1 dBTP, LRA 11), then AAC-LC 64 kbps in M4A with its index
 * first (+faststart: playback starts before the whole file is fetched) and Opus 24 kbps in WebM.
 * The saver one is constant bitrate in 60 ms frames: VBR overshoots on speech (27-28 kbps
 * measured) and 20 ms frames add 2.5 kbps of container overhead; so 20 minutes stay under 4 MB
 * (3.75 MB, scripts/audio-bench.ts). WebM, not Ogg: Chromium and Safari (iOS 17+) both play
 * Opus in WebM; Safari took Ogg only later.
 * Throws with ffmpeg's last words when it fails.
 */
export async function renderRenditions(
  tools: FfmpegTools,
  source: string,
  dir: string,
): Promise<{ standard: Rendition; saver: Rendition }> {
  const standard = path.join(dir, RENDITION_FILES.standard);
  const saver = path.join(dir, RENDITION_FILES.saver);
  const out = await run(tools.ffmpeg, [
    '-hide_banner',
    '-nostats',
    '-v',
    'error',
    '-y',
    '-i',
    source,
    '-filter_complex',
    '[0:a:0]aformat=channel_layouts=mono,loudnorm=I=-16:TP=-1:LRA=11,aresample=48000,asplit=2[s][v]',
    '-map_metadata',
    '-1',
    '-map',
    '[s]',
    '-c:a',
    'aac',
    '-b:a',
    '64k',
    '-ac',
    '1',
    '-movflags',
    '+faststart',
    standard,
    '-map',
    '[v]',
    '-c:a',
    'libopus',
    '-b:a',
    '24k',
    '-vbr',
    'off',
    '-frame_duration',
    '60',
    '-application',
    'voip',
    '-ac',
    '1',
    '-f',
    'webm',
    saver,
  ]);
  if (out.code !== 0)
    throw new Error(`ffmpeg failed: ${out.stderr.trim().split('\n').at(-1) ?? ''}`);
  const measure = async (file: string): Promise<Rendition> => {
    const probed = await probe(tools, file);
    if (!probed?.audio || !(probed.duration > 0))
      throw new Error(`ffmpeg wrote no audio to ${file}`);
    return { file, bytes: (await stat(file)).size, durationSeconds: probed.duration };
  };
  return { standard: await measure(standard), saver: await measure(saver) };
}
