// The confusable characters of the scripts usernames are mostly written in (Latin, Greek, Cyrillic), each
// with the prototype it is mistaken for, after Unicode TS #39's confusables.txt (the "MA" table). Only
// the entries whose prototype is plain Latin or a digit are kept: those are the look-alikes of the
// names people actually register. Full-width and other compatibility forms need no entry: NFKC has
// already turned them into their plain letters (username-key.ts).
//
// Each entry is "source prototype", code points as characters; a prototype may be two letters (m → rn).
const ENTRIES = `
0 O|1 l|I l|m rn
ı i|ſ f|ƍ g|Ɩ l|ǀ l|ɑ a|ɡ g|ɣ y|ɩ i|ɪ i|ɯ w|ʋ u|ʏ y|ƽ s|Ƅ b|Ʀ R|ᴄ c|ᴏ o|ᴜ u|ᴠ v|ᴡ w|ᴢ z|æ ae|Æ AE|œ oe|Œ OE
Α A|Β B|Ε E|Ζ Z|Η H|Ι l|Κ K|Μ M|Ν N|Ο O|Ρ P|Τ T|Υ Y|Χ X|Ϲ C|Ϳ J|Ϝ F|Ϻ M
α a|γ y|ι i|ν v|ο o|ρ p|σ o|υ u|ϲ c|ϳ j|ϱ p
Ѕ S|І l|Ј J|А A|В B|Е E|З 3|К K|М M|Н H|О O|Р P|С C|Т T|У Y|Х X|Ы bl|Ь b|Ѵ V|Ү Y|Ӏ l|Ԍ G|Ԛ Q|Ԝ W|Ӕ AE
а a|б 6|г r|е e|о o|р p|с c|у y|х x|ѕ s|і i|ј j|ѡ w|ѵ v|ү y|һ h|ҽ e|ӏ i|ԁ d|ԛ q|ԝ w|ӕ ae
`;

export const CONFUSABLES: ReadonlyMap<string, string> = new Map(
  ENTRIES.split(/[|\n]/u)
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const [source, prototype] = entry.split(' ');
      return [source, prototype] as [string, string];
    }),
);
