/**
 * A filter form as HTML: the fieldsets of form-fields.ts, each field with its label and its hint
 * (the schema's description) tied to it by aria-describedby, filled with what was submitted, and
 * the field a 400 names marked invalid with the message beside it. Submitted by GET, so it works
 * without JavaScript and its result has an address to bookmark and share.
 */
import type { FieldGroup, FormField } from './form-fields.ts';
import type { HtmlValue, SafeHtml } from './html.ts';
import { html } from './html.ts';

export interface FormError {
  /** The field named by the message, when it is one of the form's. */
  field: string | null;
  message: string;
}

export interface FilterFormOptions {
  action: string;
  groups: readonly FieldGroup[];
  /** What was submitted, as text, by field name. */
  values: Readonly<Record<string, string>>;
  error?: FormError | undefined;
  submit: string;
  /** Fields offering suggestions: the id of the <datalist> of each, by field name. */
  lists?: Readonly<Record<string, string>>;
  /** Shown beside the submit button: the live match count. */
  status?: SafeHtml;
}

/** The control's id: `f-min_cash`. */
function fieldId(name: string): string {
  return `f-${name}`;
}

/**
 * The summary of a refused form, at the top, focusable and announced (role=alert), with a link to
 * the field it names.
 */
export function errorSummary(error: FormError, fieldNames: ReadonlySet<string>): SafeHtml {
  const target = error.field !== null && fieldNames.has(error.field) ? `#${fieldId(error.field)}` : null;
  return html`<div class="error-summary" role="alert" tabindex="-1">
    <h2>There is a problem</h2>
    <p>${target ? html`<a href="${target}">${error.message}</a>` : error.message}</p>
  </div>`;
}

export function filterForm(options: FilterFormOptions): SafeHtml {
  const { action, groups, values, error, submit, lists = {}, status = '' } = options;
  // The results have the id "results": a search lands on them, not on the top of the form.
  return html`<form class="filter-form" method="get" action="${action}#results" id="filters">
    ${groups.map((group) => {
      const fieldset = html`<fieldset>
<legend>${group.legend}</legend>
${group.fields.map((field) =>
  fieldHtml(field, { value: values[field.name], blank: group.blank, error, list: lists[field.name] }),
)}</fieldset>
`;
      if (!group.folded) return fieldset;
      // Folded unless something in it is filled in or refused, so that nothing set is hidden.
      const open = group.fields.some((field) => values[field.name] !== undefined || error?.field === field.name);
      return html`<details class="more-filters"${open ? html` open` : ''}><summary>${group.legend}</summary>
${fieldset}</details>
`;
    })}
    <div class="form-actions">
      <button type="submit">${submit}</button>
      <a href="${action}">Clear all filters</a>
      ${status}
    </div>
  </form>`;
}

/** What a field is drawn with: its value, the words of its blank choice, the form's error if any. */
interface FieldState {
  value: string | undefined;
  blank: string;
  error?: FormError | undefined;
  /** The id of a <datalist> of suggestions for a text field. */
  list?: string | undefined;
}

function fieldHtml(field: FormField, { value, blank, error, list }: FieldState): SafeHtml {
  const id = fieldId(field.name);
  const invalid = error?.field === field.name;
  const describedBy = [`${id}-hint`, ...(invalid ? [`${id}-error`] : [])].join(' ');
  const common = html`id="${id}" name="${field.name}"
  aria-describedby="${describedBy}"${invalid ? html` aria-invalid="true"` : ''}${field.required ? html` required` : ''}`;
  return html`<div class="field${invalid ? ' field-invalid' : ''}">
    <label for="${id}">${field.label}${field.required ? html` <span class="required">(required)</span>` : ''}</label>
    <span class="hint" id="${id}-hint">${field.hint.replace(/\.?$/, '.')}</span>
    <span class="api-name">API: <code>${field.name}</code></span>
    ${invalid ? html`<span class="field-error" id="${id}-error">${error.message}</span>` : ''}
    ${control(field, { value, blank, list }, common)}
  </div> `;
}

function control(field: FormField, { value, blank, list }: FieldState, common: SafeHtml): HtmlValue {
  switch (field.kind) {
    case 'choice': {
      const chosen = value ?? field.default ?? '';
      const options = field.default === undefined ? ['', ...field.options] : field.options;
      const isOrder = field.options.some((option) => option.startsWith('-'));
      return html`<select ${common}>
        ${options.map(
          (option) =>
            html`<option value="${option}" ${option === chosen ? html` selected` : ''}>
              ${option === '' ? (field.required ? 'Choose one' : blank) : optionLabel(option, isOrder)}
            </option>`,
        )}
      </select>`;
    }
    case 'yes-no':
      return html`<select ${common}>
        ${[
          ['', 'Any'],
          ['true', 'Yes'],
          ['false', 'No'],
        ].map(
          ([v, label]) => html`<option value="${v}" ${v === (value ?? '') ? html` selected` : ''}>${label}</option>`,
        )}
      </select>`;
    case 'number':
      return html`<input
        type="number"
        ${common}
        step="${field.integer ? '1' : 'any'}"
        ${
          field.min !== undefined ? html` min="${field.min}"` : ''
        }${field.max !== undefined ? html` max="${field.max}"` : ''}${
          field.default !== undefined ? html` placeholder="${field.default}"` : ''
        }
        value="${value ?? ''}"
      />`;
    case 'date':
      return html`<input type="date" ${common} value="${value ?? ''}" />`;
    case 'text':
      return html`<input
        type="text"
        ${common}${field.maxLength !== undefined ? html` maxlength="${field.maxLength}"` : ''}${
          list !== undefined ? html` list="${list}" autocomplete="off"` : ''
        }
        value="${value ?? ''}"
      />`;
  }
}

/**
 * An enum value in words: `proposal_to_strike_off` → "proposal to strike off"; of an order (whose
 * values come with and without a leading -), `-net_assets` → "net assets, descending".
 */
function optionLabel(option: string, isOrder = false): string {
  const words = option.replace(/^-/, '').replace(/_/g, ' ');
  if (!isOrder) return words;
  return `${words}, ${option.startsWith('-') ? 'descending' : 'ascending'}`;
}
