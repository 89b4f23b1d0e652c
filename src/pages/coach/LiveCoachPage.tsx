import { coachTexts } from '../../features/coach/texts';

export default function LiveCoachPage() {
  return (
    <div className="mx-auto flex max-w-3xl flex-col items-center px-4 py-16 text-center" lang="de">
      <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">{coachTexts.heading}</h1>
      <p className="mt-4 text-lg text-slate-700">{coachTexts.instructions}</p>
    </div>
  );
}
