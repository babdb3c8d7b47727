/**
 * The body of the API's JSON endpoints (`POST /tokens`, `/layout`, `/presets`, `/templates`,
 * `/batches`, `/sites`, `/webhooks`): express.json (body-parser) behind a check of its Content-Type.
 */
import express, { type RequestHandler } from 'express';
import { ValidationError } from '../domain/kernel/errors.js';

/**
 * Parses a JSON body of at most `limit` (body-parser's notation: `'16kb'`) into `req.body`. A body
 * sent with another Content-Type, or none, is refused with a ValidationError on field `body`
 * (`format`) that names the type received: body-parser would skip it, and the route would then
 * report its first field missing (`name is required` for `curl -d '{"name": "x"}'`, which sends
 * `application/x-www-form-urlencoded`). `also`: the other Content-Types the route reads itself
 * (type-is patterns, as `multipart/form-data` for a batch's CSV), passed on unparsed. A request
 * without a body passes through (the route's own `required` errors). A body too large or not JSON:
 * see requestError (errors.ts); one nested deeper than {@link JSON_MAX_DEPTH}: ValidationError on
 * `body` (`max`).
 */
/**
 * Deepest nesting of arrays and objects a JSON body may have: 64. Every document of the API nests
 * less than 10 deep; 30,000 nested arrays overflowed the stack of the code that reads them (a 500).
 */
export const JSON_MAX_DEPTH = 64;

/** Whether `value` nests arrays and objects more than `max` deep (iterative: no recursion to overflow). */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop() as [unknown, number];
    if (v === null || typeof v !== 'object') continue;
    if (depth > max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, depth + 1]);
  }
  return false;
}

/** ValidationError on `body` (`max`) for a body nested deeper than {@link JSON_MAX_DEPTH}. */
export const tooDeep = () =>
  new ValidationError(
    'body',
    'max',
    `Expected JSON nested at most ${JSON_MAX_DEPTH} deep, but the body nests deeper`,
  );

export function jsonBody(limit: string, also: string[] = []): RequestHandler {
  const json = express.json({ limit });
  const parse: RequestHandler = (req, res, next) =>
    json(req, res, (err?: unknown) => {
      if (err) next(err);
      else if (nestedDeeperThan(req.body, JSON_MAX_DEPTH)) next(tooDeep());
      else next();
    });
  const expected = ['application/json', ...also].join(' or ');
  return (req, res, next) => {
    // type-is (req.is): null when the request has no body, false when it has one of another type;
    // an empty body (Content-Length: 0, as fetch sends a POST without one) counts as none here.
    if (req.headers['content-length'] === '0') {
      parse(req, res, next);
      return;
    }
    if (also.length && req.is(also)) {
      next();
      return;
    }
    if (req.is('application/json') === false) {
      const type = req.headers['content-type'];
      next(
        new ValidationError(
          'body',
          'format',
          `Expected a body of Content-Type ${expected} but received ${type ? JSON.stringify(type) : 'no Content-Type'}`,
        ),
      );
      return;
    }
    parse(req, res, next);
  };
}
