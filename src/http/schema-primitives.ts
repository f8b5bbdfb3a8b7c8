/**
 * The TypeBox building blocks every module's schemas share (docs/api.md conventions; spec 2, 7, 8):
 * one definition each, so that a uuid, a timestamp or an amount of money validates the same way
 * in every endpoint. Import from here instead of redefining them in a module.
 */
import { Type, type TSchema } from 'typebox';
import { Pagination } from './pagination.ts';

type StringOptions = Parameters<typeof Type.String>[0];
type IntegerOptions = Parameters<typeof Type.Integer>[0];

/** `T` or JSON null. */
export const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);

/** A description (the common case) or the full string options of a primitive. */
type Described = string | StringOptions;
const described = (o: Described | undefined): StringOptions => (typeof o === 'string' ? { description: o } : (o ?? {}));

/** A uuid (the public id of every record); `o`: its description or string options. */
export const Uuid = (o?: Described) => Type.String({ format: 'uuid', ...described(o) });

/** An ISO 8601 timestamp in UTC, e.g. 2026-11-23T09:00:00.000Z; `o`: its description or string options. */
export const DateTime = (o?: Described) => Type.String({ format: 'date-time', ...described(o) });

/** An ISO date (YYYY-MM-DD), e.g. a query filter; `o`: its description or string options. */
export const IsoDate = (o?: Described) => Type.String({ format: 'date', ...described(o) });

/** An amount of money in integer pence, 0 to the int4 maximum. */
export const Pence = (options: IntegerOptions = {}) => Type.Integer({ minimum: 0, maximum: 2147483647, description: 'pence', ...options });

/** The `limit` and `offset` query parameters of every list (spec 2.2); spread into a query object. */
export const Page = Pagination;

/** Path parameters `{uuid}`. */
export const UuidParams = Type.Object({ uuid: Uuid() }, { additionalProperties: false });
