/**
 * `json_extract`: picks `parameters.fields` out of `parameters.json_data` (a JSON string or an
 * object). Prints `{ success, extracted, missing_fields, total_fields, extracted_count, error }`.
 * @module
 */
import type { Primitive } from './types.js';
import { primitiveParameters } from './types.js';

/** The `json_extract` primitive. */
export const jsonExtract: Primitive = async (request) => {
  const parameters = primitiveParameters(request);
  const raw = parameters.json_data ?? '{}';
  const fields = Array.isArray(parameters.fields) ? parameters.fields.map(String) : [];
  let data: unknown = raw;
  if (typeof raw === 'string') {
    try {
      data = JSON.parse(raw) as unknown;
    } catch (error) {
      return {
        success: false,
        extracted: {},
        missing_fields: [],
        total_fields: 0,
        extracted_count: 0,
        error: `Invalid JSON: ${(error as Error).message}`,
      };
    }
  }
  const source = data && typeof data === 'object' ? (data as Record<string, unknown>) : {};
  const extracted: Record<string, unknown> = {};
  const missing: string[] = [];
  for (const field of fields) {
    if (Object.prototype.hasOwnProperty.call(source, field)) extracted[field] = source[field];
    else missing.push(field);
  }
  return {
    success: true,
    extracted,
    missing_fields: missing,
    total_fields: fields.length,
    extracted_count: Object.keys(extracted).length,
    error: null,
  };
};
