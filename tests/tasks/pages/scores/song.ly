% Song: one staff with lyrics. Melody and words written for LineScope's skew data (CC0).
\version "2.24.0"
#(set-default-paper-size "a4")
\header { title = "The Harbour Song" composer = "LineScope test data" tagline = ##f }
\paper { ragged-last-bottom = ##f }
verse = \relative c' {
  \key f \major \time 3/4
  c4 f g | a2 g4 | f4 a c | d2 c4 | bes4 a g | f4 g a | g2. | r2 c,4 |
  f4 f g | a4( bes) c | d4 c bes | a2 g4 | f4 a g | f4 e d | c2. | r2 c4 |
}
words = \lyricmode {
  The boats come home at eve -- ning when the
  tide is turn -- ing slow, and
  all the lamps a -- long the quay are
  shin -- ing soft and low. The
}
\score {
  <<
    \new Staff { \new Voice = "mel" { \repeat unfold 4 \verse \bar "|." } }
    \new Lyrics \lyricsto "mel" { \repeat unfold 4 \words }
  >>
  \layout { }
}
