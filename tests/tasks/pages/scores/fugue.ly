% Dense two-staff piece in running sixteenths (fugue-like), two pages. Written for LineScope's
% skew data (CC0).
\version "2.24.0"
#(set-default-paper-size "a4")
#(set-global-staff-size 15)
\header { title = "Toccata and Fughetta" composer = "LineScope test data" tagline = ##f }
\paper { ragged-last-bottom = ##f }
subj = \relative c'' { d16 e f g a bes a g f e d cis d e f d | a'8 d, bes' a g16 f e d e f g e | }
answer = \relative c' { a16 b c d e f e d c b a gis a b c a | e'8 a, f' e d16 c b a b c d b | }
counter = \relative c' { f16 g a f d e f d bes' a g f e d cis e | f16 e d c bes a g f e d cis d e f g a | }
run = \relative c'' { d16 cis d e f e f g a g a bes a g f e | d16 e f g a bes c d c bes a g f e d cis | }
bassrun = \relative c { d16 a d f a f d a bes d g bes g d bes g | a16 cis e a e cis a e d f a d a f d a | }
\score {
  \new PianoStaff <<
    \new Staff { \key d \minor \time 4/4
      \repeat unfold 4 { \subj \counter \run \transpose c f, \subj \counter \transpose c g \run } \bar "|." }
    \new Staff { \clef bass \key d \minor \time 4/4
      \repeat unfold 4 { \transpose c c, \counter \transpose c c, \answer \bassrun \transpose c c, \run \transpose c c, \answer \bassrun } }
  >>
  \layout { }
}
