/** A text field's value from a form (FormData entries can be files too); '' when missing. */
export function fieldText(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === 'string' ? value : '';
}
