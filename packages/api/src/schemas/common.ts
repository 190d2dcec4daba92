import { type TSchema, Type } from '@sinclair/typebox';

/**
 * Bodies arrive form-encoded (spec §7), so every field is a string on the wire. Schemas keep
 * fields as optional strings: the services check the rules and answer with the spec's own
 * localized messages rather than a generic schema error.
 */
export const Str = (description: string, opts: { maxLength?: number } = {}) =>
  Type.Optional(Type.String({ description, maxLength: opts.maxLength ?? 256 }));

export const Ok = <T extends TSchema>(data: T) =>
  Type.Object({
    type: Type.Literal('ok'),
    code: Type.Literal(1),
    message: Type.String(),
    data,
  });

export const Empty = Type.Null();

/** A union of the literals of a constant list (constants.ts), so each list is written once. */
export const Literals = <T extends string>(values: readonly T[], opts: { description?: string } = {}) =>
  Type.Union(
    values.map((v) => Type.Literal(v)),
    opts,
  );

/** The failure envelope (ARCHITECTURE: API conventions), for the OpenAPI document. */
export const ErrorEnvelope = Type.Object(
  {
    type: Type.Literal('error'),
    code: Type.Integer({
      description:
        'Error code (packages/api/src/errors.ts): 14xx mirror HTTP statuses, 2xxx accounts, 3xxx money',
    }),
    message: Type.String({ description: 'What went wrong, in the language of the lang header' }),
    field: Type.Optional(Type.String({ description: 'The input field the message is about, when one is' })),
  },
  { title: 'ApiError' },
);

/** The answer without a live session (HTTP 401): the app sends the user to log in. */
export const NotLoggedInEnvelope = Type.Object(
  {
    type: Type.Literal('999'),
    code: Type.Literal(999),
    message: Type.String({ description: 'In the language of the lang header' }),
  },
  { title: 'ApiNotLoggedIn' },
);
