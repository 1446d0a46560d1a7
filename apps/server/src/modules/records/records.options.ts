import {
  CHOICE_LISTS,
  COUNTRY_CODES,
  countryName,
  translate,
  type CategoryDefinition,
  type FieldMetadata,
  type Language,
  type RecordField,
  type RecordOptions,
} from '@healthbook/shared';
import { fieldLabel } from './records.service';

const DATE_PARTS_CHOICES = ['day', 'month', 'year', 'past'] as const;

/** One field's metadata, Django REST style (what the form needs to draw it). */
function metadata(category: CategoryDefinition, field: RecordField, lang: Language): Record<string, FieldMetadata> {
  const base = { required: field.required === true, read_only: false, label: fieldLabel(category, field.name, lang) };
  const hint = field.hint ? { help_text: translate(lang, `records:hints.${field.hint}`) } : {};
  switch (field.kind) {
    case 'text':
      return { [field.name]: { type: 'string', ...base, ...hint, max_length: field.max } };
    case 'number':
      return {
        [field.name]: {
          type: field.integer ? 'integer' : 'decimal',
          ...base,
          ...hint,
          ...(field.min !== undefined ? { min_value: field.min } : {}),
          ...(field.max !== undefined ? { max_value: field.max } : {}),
        },
      };
    case 'measurement':
      return { [field.name]: { type: 'decimal', ...base, ...hint } };
    case 'boolean':
      return { [field.name]: { type: 'boolean', ...base, ...hint } };
    case 'choice':
      return {
        [field.name]: {
          type: 'choice',
          ...base,
          ...hint,
          choices: CHOICE_LISTS[field.list].map((value) => ({ value, display_name: translate(lang, `records:choices.${field.list}.${value}`) })),
        },
      };
    case 'country':
      return {
        [field.name]: {
          type: 'choice',
          ...base,
          choices: COUNTRY_CODES.map((value) => ({ value, display_name: countryName(value, lang) })).sort((a, b) => a.display_name.localeCompare(b.display_name, lang)),
        },
      };
    case 'date':
      return { [field.name]: { type: 'date', ...base, ...hint } };
    case 'medicalDate':
      return {
        [field.name]: { type: 'date', ...base, ...hint },
        [`${field.name}_part`]: {
          type: 'choice',
          required: false,
          read_only: false,
          label: translate(lang, 'records:datePartLabel', { field: base.label }),
          choices: DATE_PARTS_CHOICES.map((value) => ({ value, display_name: translate(lang, `records:choices.datePart.${value}`) })),
        },
      };
  }
}

const readOnly = (label: string, type: FieldMetadata['type'] = 'field'): FieldMetadata => ({ type, required: false, read_only: true, label });

/** OPTIONS /api/v1/hr/{category}/: the fields, their rules and their choices, labelled in the reader's language. */
export function recordOptions(category: CategoryDefinition, lang: Language): RecordOptions {
  const fields: Record<string, FieldMetadata> = {
    id: readOnly('ID', 'integer'),
    ...(category.key === 'allergy' ? { allergy_id: readOnly(fieldLabel(category, 'allergy_id', lang), 'integer') } : {}),
    patient: readOnly(fieldLabel(category, 'patient', lang), 'integer'),
  };
  for (const field of category.fields) Object.assign(fields, metadata(category, field, lang));
  fields.private = { type: 'boolean', required: false, read_only: false, label: fieldLabel(category, 'private', lang), help_text: translate(lang, 'records:hints.private') };
  fields.attachments = readOnly(fieldLabel(category, 'attachments', lang));
  fields.created_at = readOnly('created_at');
  fields.updated_at = readOnly('updated_at');
  return {
    name: translate(lang, `records:categories.${category.key}.other`),
    description: translate(lang, `records:categories.${category.key}.intro`),
    renders: ['application/json'],
    parses: ['application/json'],
    actions: { POST: fields },
  };
}
