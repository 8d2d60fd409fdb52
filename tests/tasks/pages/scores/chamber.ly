% Chamber score: flute, oboe, clarinet in B flat, two violins, viola, cello (7 staves a system).
% Written for LineScope's skew data (CC0).
\version "2.24.0"
#(set-default-paper-size "a4")
#(set-global-staff-size 16)
\header { title = "Serenade" subtitle = "for winds and strings" composer = "LineScope test data" tagline = ##f }
\paper { ragged-last-bottom = ##f }
global = { \key d \major \time 4/4 }
fl = \relative c''' { a4\p( fis8 g a2) | b8( a g fis e4 d) | fis4( e8 d cis4 e) | d2. r4 | }
ob = \relative c'' { fis4\p( d8 e fis2) | g8( fis e d cis4 b) | d4( cis8 b a4 cis) | d2. r4 | }
cl = \relative c'' { \transposition bes e4\p( cis8 d e2) | fis4( e d cis) | b2( a4 b) | e2. r4 | }
vnI = \relative c'' { d8\mf d fis a d4 a | g8 g b d g4 d | a8 a cis e a4 e | d8 a fis a d2 | }
vnII = \relative c' { fis8\mf fis a d fis4 d | e8 e g b e4 b | cis8 cis e a cis4 a | fis8 d a d fis2 | }
va = \relative c' { a4\mf a a a | b4 b b b | a4 a a g | fis4 a d, r | }
vc = \relative c { d4\mf fis a d, | g4 b d g, | a4 cis e a, | d4 a d,2 | }
\score {
  <<
    \new StaffGroup <<
      \new Staff \with { instrumentName = "Flute" shortInstrumentName = "Fl." } { \global \repeat unfold 6 \fl \bar "|." }
      \new Staff \with { instrumentName = "Oboe" shortInstrumentName = "Ob." } { \global \repeat unfold 6 \ob }
      \new Staff \with { instrumentName = "Clarinet" shortInstrumentName = "Cl." } { \key e \major \time 4/4 \repeat unfold 6 \cl }
    >>
    \new StaffGroup <<
      \new Staff \with { instrumentName = "Violin I" shortInstrumentName = "Vl. I" } { \global \repeat unfold 6 \vnI }
      \new Staff \with { instrumentName = "Violin II" shortInstrumentName = "Vl. II" } { \global \repeat unfold 6 \vnII }
      \new Staff \with { instrumentName = "Viola" shortInstrumentName = "Va." } { \global \clef alto \repeat unfold 6 \va }
      \new Staff \with { instrumentName = "Cello" shortInstrumentName = "Vc." } { \global \clef bass \repeat unfold 6 \vc }
    >>
  >>
  \layout { }
}
