-- Questions as people say them: words that only say how often or how much ("dauernd",
-- "andauernd", "permanent") weigh nothing, and waking at night is a question about sleep ("wie
-- krieg ich das hin dass ich nachts nich dauernd aufwach": "aufwachen", "wach liegen" and
-- "durchschlafen" find "schlafen", not the reverse).

insert into private.question_words (lexeme)
select distinct v.lexeme
  from unnest(private.german_lexemes(
    'dauernd andauernd permanent')) as v
on conflict (lexeme) do nothing;

insert into private.synonyms (grp, lexeme, evidence_only)
select g.grp, l.lexeme, w.evidence_only
  from (select max(s.grp) + 1 as grp from private.synonyms s) g
  cross join (values ('aufwachen', false), ('wachliegen', false), ('durchschlafen', false), ('schlafen', true)) as w (word, evidence_only)
  cross join lateral (
    select v.lexeme from unnest(private.german_lexemes(w.word)) as v order by char_length(v.lexeme) desc limit 1
  ) l;
