import { LiveCoach } from '../../features/coach/LiveCoach';
import { coachTexts } from '../../features/coach/texts';

export default function LiveCoachPage() {
  return (
    <div className="bg-gradient-to-b from-brand-50 to-white" lang="de">
      <div className="mx-auto flex max-w-3xl flex-col items-center px-4 py-12 text-center sm:px-6 sm:py-16">
        <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl lg:text-5xl">{coachTexts.heading}</h1>
        <p className="mt-4 max-w-2xl text-lg text-slate-700">{coachTexts.instructions}</p>
        <LiveCoach />
      </div>
    </div>
  );
}
