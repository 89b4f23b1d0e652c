import { describe, expect, it } from 'vitest';
import { classesIn, classesOfSelector, criticalCss } from '../../scripts/criticalCss';

const html = `<html><body class="bg-white"><a class="hover:bg-brand-50 2xl:p-4 [overflow-wrap:break-word]" data-x="a.b">x</a>
  <ul class="space-y-2 &quot;q&quot;"><li class="marker:text-slate-700">y</li></ul></body></html>`;

describe('classesIn', () => {
  it('collects the class names of every class attribute, entities decoded', () => {
    expect([...classesIn(html)].sort()).toEqual(
      ['"q"', '2xl:p-4', '[overflow-wrap:break-word]', 'bg-white', 'hover:bg-brand-50', 'marker:text-slate-700', 'space-y-2'].sort(),
    );
  });
});

describe('classesOfSelector', () => {
  it('unescapes Tailwind class names and ignores dots inside attribute selectors', () => {
    expect(classesOfSelector('.hover\\:bg-brand-50:hover')).toEqual(['hover:bg-brand-50']);
    expect(classesOfSelector('.\\32 xl\\:p-4')).toEqual(['2xl:p-4']);
    expect(classesOfSelector('.\\[overflow-wrap\\:break-word\\]')).toEqual(['[overflow-wrap:break-word]']);
    expect(classesOfSelector(':where(.space-y-2>:not(:last-child))')).toEqual(['space-y-2']);
    expect(classesOfSelector('a[href$=".pdf"] .icon')).toEqual(['icon']);
    expect(classesOfSelector('html:not([data-layout=full]) main>section~section')).toEqual([]);
  });
});

describe('criticalCss', () => {
  const css = `@layer theme,base,components,utilities;
@layer base{*,:after{box-sizing:border-box}ol,ul{list-style:none}}
@layer components{.card-unused{padding:1rem}}
@layer utilities{
.bg-white{background:#fff}
.text-red-600{color:red}
.hover\\:bg-brand-50:hover{background:#eef}
@media (hover:hover){.hover\\:bg-brand-50:hover{background:#eef}.hover\\:bg-red-50:hover{background:#fee}}
@media (min-width:96rem){.\\32 xl\\:p-4{padding:1rem}.\\32 xl\\:p-8{padding:2rem}}
:where(.space-y-2>:not(:last-child)){margin-block-end:.5rem}
:where(.space-y-4>:not(:last-child)){margin-block-end:1rem}
.marker\\:text-slate-700 ::marker,.marker\\:text-slate-700::marker{color:#333}
.has-\\[\\:checked\\]\\:bg-brand-50:has(:checked){background:#eef}
.bg-white,.text-red-600{border:0}
}
@keyframes spin{to{transform:rotate(360deg)}}
@property --tw-shadow{syntax:"*";inherits:false}`;
  const out = criticalCss(css, html);

  it('keeps the rules of classes on the page with their states, breakpoints and pseudo-elements', () => {
    expect(out).toContain('.bg-white{background:#fff}');
    expect(out).toContain('@media (hover:hover){.hover\\:bg-brand-50:hover{background:#eef}}');
    expect(out).toContain('@media (min-width:96rem){.\\32 xl\\:p-4{padding:1rem}}');
    expect(out).toContain(':where(.space-y-2>:not(:last-child))');
    expect(out).toContain('.marker\\:text-slate-700::marker');
  });

  it('drops the rules of classes the page does not use, and the parts of selector lists that name them', () => {
    expect(out).not.toContain('text-red-600');
    expect(out).not.toContain('bg-red-50');
    expect(out).not.toContain('p-8');
    expect(out).not.toContain('space-y-4');
    expect(out).not.toContain('has-');
    expect(out).toContain('.bg-white{border:0}');
  });

  it('keeps rules without classes, keyframes, properties and the layer order; an emptied layer stays as a statement', () => {
    expect(out).toContain('@layer theme,base,components,utilities;');
    expect(out).toContain('*,:after{box-sizing:border-box}');
    expect(out).toContain('@layer components;');
    expect(out).not.toContain('card-unused');
    expect(out).toContain('@keyframes spin{to{transform:rotate(360deg)}}');
    expect(out).toContain('@property --tw-shadow');
  });
});
