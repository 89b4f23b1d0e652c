import { Card } from '../../components/ui/Card';

interface SuccessStoryProps {
  title: string;
  text: string;
  /** A static figure such as "35 %"; plain text, never computed. */
  stat: string;
  statText: string;
  quote: string;
  name: string;
  role: string;
}

/** A customer story: situation, the figure it achieved and a quote. */
export function SuccessStory({ title, text, stat, statText, quote, name, role }: SuccessStoryProps) {
  return (
    <Card className="flex h-full flex-col">
      <h3 className="break-words text-lg font-semibold text-slate-900 hyphens-auto sm:text-xl">{title}</h3>
      <p className="mt-2 text-slate-700">{text}</p>
      <p className="mb-6 mt-6">
        <span className="block text-4xl font-extrabold tracking-tight text-brand-800">{stat}</span>
        <span className="mt-1 block font-medium text-slate-900">{statText}</span>
      </p>
      <figure className="mt-auto rounded-xl bg-brand-50 p-5">
        <blockquote className="text-slate-900">{quote}</blockquote>
        <figcaption className="mt-3 text-sm">
          <span className="font-semibold text-slate-900">{name}</span>
          <span className="text-slate-700"> · {role}</span>
        </figcaption>
      </figure>
    </Card>
  );
}
