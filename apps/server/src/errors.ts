import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ResultCode } from '@kathamala/domain';

/** An error a client caused or may see; its message is shown to the person as written. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    /** The request field the failure is about, if one is (sent as `field`). */
    readonly field?: string,
  ) {
    super(message);
  }
}

export const notFound = (message: string) => new AppError(404, ResultCode.notFound, message);
export const unauthorized = (message = 'Please log in to continue.') =>
  new AppError(401, ResultCode.unauthorized, message);
export const forbidden = (message: string) => new AppError(403, ResultCode.forbidden, message);
export const conflict = (message: string, field?: string) =>
  new AppError(409, ResultCode.conflict, message, field);
export const invalid = (message: string, field?: string) =>
  new AppError(400, ResultCode.invalidInput, message, field);

interface AjvError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message?: string;
}

/** Turns a schema validation failure into one sentence a person understands. */
export function describeValidation(errors: AjvError[], context: string | undefined): string {
  const first = errors.find((e) => e.keyword !== 'anyOf') ?? errors[0];
  if (!first) return 'The request is not valid.';
  const path = first.instancePath.replace(/^\//, '').replace(/\//g, '.');
  const where =
    context === 'body' ? 'in the request body' : context === 'params' ? 'in the address' : '';
  const name = (field: string) => `'${field}'`;
  const field =
    path || (typeof first.params.missingProperty === 'string' ? first.params.missingProperty : '');
  const label = field ? name(field) : 'The request';
  const options = errors
    .filter((e) => e.keyword === 'const' && e.instancePath === first.instancePath)
    .map((e) => String(e.params.allowedValue));
  switch (first.keyword) {
    case 'required':
      return `${name(String(first.params.missingProperty))} is required ${where}.`.replace(
        ' .',
        '.',
      );
    case 'additionalProperties':
      return `'${String(first.params.additionalProperty)}' is not a field this request accepts.`;
    case 'type':
      return first.params.type === 'integer' || first.params.type === 'number'
        ? `${label} must be a whole number.`
        : first.params.type === 'object'
          ? 'The request body must be a JSON object.'
          : `${label} must be ${first.params.type === 'string' ? 'text' : `a ${String(first.params.type)}`}.`;
    case 'minimum':
      return `${label} must be ${String(first.params.limit)} or more.`;
    case 'maximum':
      return `${label} must be ${String(first.params.limit)} or less.`;
    case 'minLength':
      return first.params.limit === 1
        ? `${label} must not be empty.`
        : `${label} must be at least ${String(first.params.limit)} characters long.`;
    case 'maxLength':
      return `${label} must be at most ${String(first.params.limit)} characters long.`;
    case 'format':
      return first.params.format === 'email'
        ? `${label} must be a valid e-mail address.`
        : `${label} is not in the expected format.`;
    case 'pattern':
      return `${label} contains characters that are not allowed.`;
    case 'enum':
      return `${label} must be one of: ${(first.params.allowedValues as unknown[]).join(', ')}.`;
    case 'const':
      return options.length > 1
        ? `${label} must be one of: ${options.join(', ')}.`
        : `${label} must be '${String(first.params.allowedValue)}'.`;
    default:
      return `${label} is not valid.`;
  }
}

/**
 * PostgreSQL's refusals of a value itself (a NUL or unencodable character, a number out of its
 * column's range): the client's input, never our failure, should a check upstream miss one.
 */
const UNSTORABLE = new Set(['22021', '22P05', '22003']);
const unstorableInput = (error: unknown): boolean => {
  for (let e = error, i = 0; e && typeof e === 'object' && i < 4; e = (e as Error).cause, i++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && UNSTORABLE.has(code)) return true;
  }
  return false;
};

/** Every failure leaves as `{code, message}`; nothing a client sends produces a 500. */
export function installErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError & { validation?: AjvError[] }, request, reply) => {
    if (error instanceof AppError) {
      const { code, message, field } = error;
      return reply.status(error.status).send(field ? { code, message, field } : { code, message });
    }
    if (error.validation) {
      return reply.status(400).send({
        code: ResultCode.invalidInput,
        message: describeValidation(error.validation, error.validationContext),
      });
    }
    switch (error.code) {
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return reply
          .status(413)
          .send({ code: ResultCode.payloadTooLarge, message: 'The request is too large.' });
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        return reply.status(415).send({
          code: ResultCode.invalidInput,
          message: 'Send the request body as JSON (Content-Type: application/json).',
        });
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
        return reply
          .status(400)
          .send({ code: ResultCode.invalidInput, message: 'The request body is empty.' });
      case 'FST_ERR_CTP_INVALID_JSON_BODY':
        return reply
          .status(400)
          .send({ code: ResultCode.invalidInput, message: 'The request body is not valid JSON.' });
    }
    if (error.statusCode === 429) {
      return reply.status(429).send({
        code: ResultCode.tooManyRequests,
        message: 'Too many requests. Please wait a minute and try again.',
      });
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      // Fastify's own client errors (bad JSON, bad header): keep the status, hide internals.
      const message =
        error instanceof SyntaxError
          ? 'The request body is not valid JSON.'
          : 'The request is not valid.';
      return reply.status(error.statusCode).send({ code: ResultCode.invalidInput, message });
    }
    if (unstorableInput(error)) {
      return reply.status(400).send({
        code: ResultCode.invalidInput,
        message: 'The request holds a character or a number that cannot be stored.',
      });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({
      code: ResultCode.internal,
      message: 'Something went wrong on our side. Please try again.',
    });
  });
}

const failureBody = (code: number, message: string) => JSON.stringify({ code, message });

/**
 * Fastify's router refusals (a path with a broken %-escape, a path segment over
 * maxParamLength) answer `{code, message}` like every other failure instead of Fastify's own
 * `{error, code: 'FST_…'}` shape.
 */
export function frameworkErrors(
  error: FastifyError,
  _request: FastifyRequest,
  reply: FastifyReply,
) {
  const tooLong = error.code === 'FST_ERR_MAX_PARAM_LENGTH';
  return reply
    .status(tooLong ? 414 : 400)
    .header('content-type', 'application/json; charset=utf-8')
    .send(
      failureBody(
        ResultCode.invalidInput,
        tooLong ? 'The address is too long.' : 'The address is not valid.',
      ),
    );
}

/**
 * What Node's HTTP parser refuses before Fastify sees a request (headers over the size limit,
 * a broken request line or header, a request that took too long to arrive) answers a
 * `{code, message}` JSON too, then the connection closes: the parser cannot find where the
 * next request would start.
 */
export function clientErrorHandler(error: NodeJS.ErrnoException, socket: Duplex) {
  // A reset or closed connection has nobody left to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, reason, code, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [
          431,
          'Request Header Fields Too Large',
          ResultCode.payloadTooLarge,
          'The request headers are too large.',
        ]
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' || error.code === 'ERR_HTTP_HEADERS_TIMEOUT'
        ? [408, 'Request Timeout', ResultCode.invalidInput, 'The request took too long to arrive.']
        : [400, 'Bad Request', ResultCode.invalidInput, 'The request is not valid HTTP.'];
  const body = failureBody(code, message);
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}
