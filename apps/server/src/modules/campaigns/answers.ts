import { TEXT_LIMITS, type AnswerValue, type Question } from '@kathamala/domain';

/**
 * The answers as their questions' kinds hold them: request validation may have coerced a
 * rating to text ("4") or a numeric text to a number; blank texts are dropped.
 */
export function normalizeAnswers(
  questions: Question[],
  answers: Record<string, AnswerValue>,
): Record<string, AnswerValue> {
  const kinds = new Map(questions.map((q) => [q.id, q.kind]));
  const out: Record<string, AnswerValue> = {};
  for (const [id, value] of Object.entries(answers)) {
    const kind = kinds.get(id);
    if (kind === 'rating' && typeof value === 'string' && /^\d+$/.test(value.trim()))
      out[id] = Number(value);
    else if ((kind === 'short' || kind === 'long') && typeof value === 'number')
      out[id] = String(value);
    else if (typeof value === 'string' && !value.trim()) continue;
    else out[id] = value;
  }
  return out;
}

/** Why the answers do not fit the questions (a sentence naming the question), or null. */
export function answersProblem(
  questions: Question[],
  answers: Record<string, AnswerValue>,
): { questionId: string; message: string } | null {
  const known = new Set(questions.map((q) => q.id));
  for (const id of Object.keys(answers))
    if (!known.has(id))
      return { questionId: id, message: `There is no question "${id}" in this questionnaire.` };
  for (const q of questions) {
    const name = `"${q.label.en}"`;
    const fail = (message: string) => ({ questionId: q.id, message });
    const value = answers[q.id];
    const empty =
      value === undefined ||
      (typeof value === 'string' && value.trim() === '') ||
      (Array.isArray(value) && value.length === 0);
    if (empty) {
      if (q.required) return fail(`Please answer the question ${name}: it is required.`);
      continue;
    }
    const offered = new Set((q.options ?? []).map((o) => o.id));
    switch (q.kind) {
      case 'single':
        if (typeof value !== 'string' || !offered.has(value))
          return fail(`The answer to ${name} is not one of the choices it offers.`);
        break;
      case 'multiple':
        if (!Array.isArray(value) || value.some((v) => !offered.has(v)))
          return fail(`An answer to ${name} is not one of the choices it offers.`);
        if (new Set(value).size !== value.length)
          return fail(`The answer to ${name} names a choice twice.`);
        break;
      case 'short':
      case 'long': {
        if (typeof value !== 'string') return fail(`The answer to ${name} must be text.`);
        const limit = TEXT_LIMITS[q.kind];
        if ([...value].length > limit)
          return fail(`The answer to ${name} is longer than its limit of ${limit} characters.`);
        break;
      }
      case 'rating':
        if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > 5)
          return fail(`The answer to ${name} must be a rating from 1 to 5.`);
        break;
    }
  }
  return null;
}

/** Why an editor's questions cannot be stored (duplicate ids, choices missing), or null. */
export function questionsProblem(questions: Question[]): string | null {
  const ids = new Set<string>();
  for (const q of questions) {
    if (ids.has(q.id)) return `Two questions have the id "${q.id}"; each needs its own.`;
    ids.add(q.id);
    const choice = q.kind === 'single' || q.kind === 'multiple';
    if (choice && (q.options?.length ?? 0) < 2)
      return `The question "${q.label.en}" needs at least two choices.`;
    if (!choice && q.options?.length)
      return `The question "${q.label.en}" is not a choice question, so it takes no choices.`;
    if (choice && new Set(q.options!.map((o) => o.id)).size !== q.options!.length)
      return `Two choices of "${q.label.en}" have the same id.`;
  }
  return null;
}

/** A CSV cell: quoted when it holds a comma, quote or line break; formulas defused. */
export const csvCell = (value: string): string => {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};
