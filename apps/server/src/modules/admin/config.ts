import type { Lang } from '@verdant/api';
import { compareDecimal, parseDecimal } from '@verdant/engine';
import type { Db, Queryable } from '../../db/client.ts';
import { AppError, invalid } from '../../http/errors.ts';
import { t } from '../../i18n/index.ts';
import { writeAudit } from './audit.ts';
import type { OperatorSession } from './operators.ts';

/**
 * What every module's configuration routes share (issue 23, configuration as data): reading an
 * operator's form field by field, each error in the operator's language naming the field, and
 * the audited change (the row before, the change, the row after and the audit entry in one
 * transaction). Each module keeps its own rules and tables; only this plumbing is one piece.
 */

/** A form as operators send it: every value text (or absent). */
export type ConfigForm = Record<string, string | undefined>;

/** Reads one operator form; every error names its field in `lang` (keys config.fields.*). */
export class ConfigFields {
  constructor(
    private readonly form: ConfigForm,
    private readonly lang: Lang,
  ) {}

  /** The error of `field` under rule `config.rule.<rule>`, its name in the operator's language. */
  fail(field: string, rule: string, params: Record<string, string | number> = {}): AppError {
    return invalid(`config.rule.${rule}`, field, { ...params, name: t(this.lang, `config.fields.${field}`) });
  }

  private raw(field: string): string {
    const v = (this.form[field] ?? '').trim();
    if (!v) throw this.fail(field, 'required');
    return v;
  }

  /**
   * A decimal string within [min, max] (`above`: strictly above min), with at most `places`
   * places; answered canonical. Never a JS number: these are amounts and rates.
   */
  decimal(field: string, o: { min: string; max: string; above?: boolean; places?: number }): string {
    const v = this.raw(field);
    const d = parseDecimal(v);
    if (d === null || d.length > 40) throw this.fail(field, 'decimal');
    const low = compareDecimal(d, o.min);
    if (low < 0 || (o.above && low === 0) || compareDecimal(d, o.max) > 0)
      throw this.fail(field, o.above ? 'rangeAbove' : 'range', { min: o.min, max: o.max });
    const places = (d.split('.')[1] ?? '').length;
    if (o.places !== undefined && places > o.places) throw this.fail(field, 'places', { places: o.places });
    return d;
  }

  /** A whole number within [min, max]. */
  integer(field: string, min: number, max: number): number {
    const v = this.raw(field);
    if (!/^\d{1,9}$/.test(v) || Number(v) < min || Number(v) > max)
      throw this.fail(field, 'integer', { min, max });
    return Number(v);
  }

  /** On or off: 1/0, true/false (a checkbox or a switch); `absent` when the form leaves it out. */
  flag(field: string, absent?: boolean): boolean {
    if (absent !== undefined && !(this.form[field] ?? '').trim()) return absent;
    const v = this.raw(field).toLowerCase();
    if (v === '1' || v === 'true') return true;
    if (v === '0' || v === 'false') return false;
    throw this.fail(field, 'flag');
  }

  /** One line of text, or undefined when the form leaves the field out (keep what is stored). */
  optionalText(field: string, max: number): string | undefined {
    if (this.form[field] === undefined) return undefined;
    return this.text(field, max, false);
  }

  /** One line of text of at most `max` characters; empty allowed when not `required`. */
  text(field: string, max: number, required = true): string {
    const v = (this.form[field] ?? '').trim().replace(/\s+/g, ' ');
    if (!v && required) throw this.fail(field, 'required');
    if ([...v].length > max) throw this.fail(field, 'tooLong', { max });
    return v;
  }
}

/** Namespace of the configuration changes' advisory locks, per schema (tests share a server). */
const CONFIG_LOCK = "hashtext('verdant.config:' || coalesce(current_schema(), ''))";

/** Operators who may change configuration: admins only. */
export const CONFIG_ROLES = ['admin'] as const;

export interface ConfigChange<T> {
  op: OperatorSession;
  ip: string;
  /** `<area>.<verb>`, e.g. 'config.option_seconds.save' */
  action: string;
  targetType: string;
  targetId: string | number;
  /** The row as stored now, locked (null: none yet); inside the change's transaction. */
  read(q: Queryable): Promise<T | null>;
  /** Checks against the row before (throw an AppError to refuse) and writes the change. */
  write(q: Queryable, before: T | null): Promise<void>;
}

/** The change with its audit entry (before and after) in one transaction; answers the row after. */
export async function auditedChange<T>(db: Db, c: ConfigChange<T>): Promise<T> {
  return db.tx(async (q) => {
    // One change of a target at a time, from its first save on: a row not written yet (the
    // maker's settings, a new delivery time) has nothing FOR UPDATE could lock.
    await q.query(`SELECT pg_advisory_xact_lock(${CONFIG_LOCK}, hashtext($1))`, [
      `${c.targetType}:${c.targetId}`,
    ]);
    const before = await c.read(q);
    await c.write(q, before);
    const after = await c.read(q);
    if (after === null) throw new AppError('NOT_FOUND', 'errors.notFound', {}, 'id');
    await writeAudit(q, {
      operatorId: c.op.id,
      action: c.action,
      targetType: c.targetType,
      targetId: c.targetId,
      before,
      after,
      ip: c.ip,
    });
    return after;
  });
}
