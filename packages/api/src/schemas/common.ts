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
