import { useT } from '../../i18n/language';

type Cell = string | boolean;

interface ComparisonTableProps {
  caption: string;
  /** The first header names the row labels' column, the rest the compared options. */
  columns: readonly string[];
  rows: readonly { label: string; values: readonly Cell[] }[];
}

/** A comparison table; yes/no cells show a mark with a spoken "yes"/"no". Scrolls sideways on phones. */
export function ComparisonTable({ caption, columns, rows }: ComparisonTableProps) {
  const { t } = useT();
  const cell = (value: Cell) =>
    typeof value === 'string' ? (
      value
    ) : value ? (
      <>
        <span aria-hidden="true" className="text-lg font-bold text-emerald-700">✓</span>
        <span className="sr-only">{t('table.yes')}</span>
      </>
    ) : (
      <>
        <span aria-hidden="true" className="text-lg text-slate-500">–</span>
        <span className="sr-only">{t('table.no')}</span>
      </>
    );
  return (
    // The wrapper scrolls, so it must be reachable by keyboard.
    // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
    <div className="relative overflow-x-auto rounded-2xl border border-slate-200" tabIndex={0} role="region" aria-label={caption}>
      <table className="w-full min-w-[36rem] border-collapse text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-slate-50">
          <tr>
            {columns.map((column, index) => (
              <th key={column} scope="col" className={`px-4 py-3 font-semibold text-slate-900 ${index > 0 ? 'text-center' : ''}`}>
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200">
          {rows.map((row) => (
            <tr key={row.label}>
              <th scope="row" className="px-4 py-3 font-medium text-slate-800">
                {row.label}
              </th>
              {row.values.map((value, index) => (
                <td key={`${row.label}-${String(index)}`} className="px-4 py-3 text-center text-slate-800">
                  {cell(value)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
