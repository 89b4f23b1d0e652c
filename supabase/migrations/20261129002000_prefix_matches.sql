-- Loose prefix matches. A word of four letters or more counted as the beginning of any longer
-- word, and so did each of its synonyms: "Aktien" (akti) found "Aktion", "Urlaub" found "Freitag"
-- by way of its synonym "frei", and the offline coach quoted a passage about something else. Now
-- a word counts as the beginning of a word at least three letters longer only (a compound or a
-- derivation: "Pause" – "Pausenraum"; one or two letters more are another word, or the stemmer
-- would have cut them as an ending), and a synonym counts as written. The longer words a term
-- finds are named in its query, as the compounds ending in it already were.
--
-- The whole definition of private.term_query(), as …_spoken_questions.sql wrote it otherwise.

-- What a passage must hold to have a word: the word, of four letters or more also as the beginning
-- of a word at least three letters longer (a compound or a derivation: "Pause" – "Pausenraum"; one
-- or two letters more make another word, which the stemmer would have cut to the same stem were
-- they an ending: "Aktien" (akti) is no "Aktion"); its synonyms as written ("Urlaub" – "frei", not
-- "Freitag"); and the knowledge base's compounds ending in the word ("Urlaub" – "Erholungsurlaub";
-- the six held by most passages). The query names the longer words it finds when one of the
-- passages' words is only one or two letters longer (a prefix query would find that one, too),
-- else it asks for the word as a prefix. With how many passages hold any of these, at most (a
-- passage with two of them counts twice). related: for a word no passage holds (and no synonym or
-- compound of it), the lexemes of its thesaurus sets (private.thesaurus) that passages hold, with
-- how many passages hold them. A word the knowledge base has is taken as the documents write it:
-- its thesaurus sets mix senses and would pull in passages about another one. A question word is
-- no synonym ("Flasche" – "Kanne" is stemmed "kann", as "kann" is). A verb in the form the
-- question says it (a word that is no noun, ending in -t, -et or -st after a consonant, or a
-- participle with ge-) finds the stem without that ending when passages hold it: "wartet" –
-- "warten", "abgesagt" – "absagen".
create or replace function private.term_query(word text, out query tsquery, out passages integer,
                                              out related tsquery, out related_passages integer)
language sql
stable
set search_path = ''
as $$
  with spoken_number as (
    -- Most words are no number: only what starts like one is read as one.
    select case when word ~ '^(null|ein|zwei|zwanz|drei|vier|funf|sech|sieb|acht|neun|zehn|elf|zwolf|hundert)'
                then private.number_digits(word) end as digits
  ),
  forms as (
    -- own: the word or its verb stem, which may begin a longer word; a synonym or digits not.
    select word as form, true as own
    union
    select s2.lexeme, false
      from private.synonyms s1
      join private.synonyms s2 on s2.grp = s1.grp and s2.lexeme <> s1.lexeme
     where s1.lexeme = word and not s1.evidence_only
    union
    -- A number spoken as a word, as the documents may write it: "acht" – "8", "einundfünfzig" – "51".
    select n.digits, false from spoken_number n where n.digits is not null
    union
    -- A verb as the question says it ("wartet", "abgesagt"): its stem as the documents write it
    -- ("warten": wart, "absagen": absag), when passages hold that stem; no noun ("Nacht" is no
    -- "nach").
    select k.lexeme, true
      from (select regexp_replace(regexp_replace(word, '^(ab|an|auf|aus|ein|mit|nach|vor|zu|zuruck|weg|um|)ge(.{3,})$', '\1\2'), '(?<=..)(est|et|st|t)$', '') as stem
             where word ~ '[^aeiouäöü](est|et|st|t)$' and char_length(word) >= 5
               and not exists (select from private.noun_words n where n.word = term_query.word)) v
      join private.knowledge_terms k on k.lexeme = v.stem
     where v.stem <> word and char_length(v.stem) >= 4
  ),
  quoted as (
    -- A synonym that is the word's own form, too, counts as its own.
    select distinct on (f.form) f.form,
           format('''%s''', replace(replace(f.form, '\', '\\'), '''', '''''')) as literal,
           f.own and char_length(f.form) >= 4 and f.form !~ '[^[:alpha:]]' as as_prefix
      from forms f
     order by f.form, f.own desc
  ),
  heads as (
    -- Compounds ending in the word itself (four letters or more: "Tank" – "Wassertank"; shorter
    -- ones end too many unrelated words: "Tag" – "Vertrag"). Not those of its synonyms: they end
    -- unrelated words as easily ("Urlaub" – "frei" – "gewaltfrei"), and the synonym table names
    -- the compounds that matter ("Sonderurlaub").
    select h.lexeme, h.passages
      from quoted q
      cross join lateral (
        select k.lexeme, k.passages
          from private.knowledge_terms k
         where q.form = word and char_length(q.form) >= 4 and q.form !~ '[^[:alpha:]]'
           -- No number: "acht" ends "Weihnacht" and "Beobacht(ung)".
           and not exists (select from spoken_number n where n.digits is not null)
           and k.reversed ~>=~ reverse(q.form) and k.reversed ~<~ (reverse(q.form) || chr(65535))
           -- A compound: at least three letters before the form ("Wasser|tank", not "G|reifen").
           and char_length(k.lexeme) >= char_length(q.form) + 3
           and not (q.as_prefix and left(k.lexeme, char_length(q.form)) = q.form)
         order by k.passages desc, k.lexeme
         limit 6
      ) h
  ),
  begun as (
    -- The passages' words a form begins (itself included); near: one or two letters longer.
    select q.form, k.lexeme, k.passages, char_length(k.lexeme) - char_length(q.form) between 1 and 2 as near
      from quoted q
      join private.knowledge_terms k
        on k.lexeme ~>=~ q.form and k.lexeme ~<~ (q.form || case when q.as_prefix then chr(65535) else chr(1) end)
  ),
  named as (
    -- The forms whose prefix query would find a near word: their longer words by name.
    select b.lexeme
      from begun b
     where not b.near and b.lexeme <> b.form
       and exists (select from begun n where n.form = b.form and n.near)
  ),
  held as (
    select b.lexeme, b.passages from begun b where not b.near
    union
    select h.lexeme, h.passages from heads h
  ),
  thesaurus as (
    select distinct k.lexeme, k.passages
      from private.thesaurus t1
      join private.thesaurus t2 on t2.grp = t1.grp and t2.lexeme <> t1.lexeme
      join private.knowledge_terms k on k.lexeme = t2.lexeme
     where t1.lexeme = word
       and not exists (select from held h)
       and not exists (select from private.question_words q where q.lexeme = k.lexeme)
  )
  select (
           select string_agg(p.literal, ' | ')
             from (
               select q.literal || case when q.as_prefix and not exists (select from begun n where n.form = q.form and n.near)
                                        then ':*' else '' end as literal
                 from quoted q
               union all
               select format('''%s''', replace(replace(l.lexeme, '\', '\\'), '''', '''''')) from (select lexeme from named union select lexeme from heads) l
             ) p
         )::tsquery,
         coalesce((select sum(held.passages) from held), 0)::integer,
         (select string_agg(format('''%s''', replace(replace(t.lexeme, '\', '\\'), '''', '''''')), ' | ') from thesaurus t)::tsquery,
         coalesce((select sum(t.passages) from thesaurus t), 0)::integer
$$;
