% Piano piece: grand staff, chords, dynamics. Written for LineScope's skew data (CC0).
\version "2.24.0"
#(set-default-paper-size "a4")
\header { title = "Nocturne in G" composer = "LineScope test data" tagline = ##f }
\paper { ragged-last-bottom = ##f }
rightA = \relative c'' {
  \key g \major \time 3/4
  <b d g>4\p( a8 b c d | <e g>2 d4) | <c e a>4( b8 a g fis | <d g>2.) |
  <b' d>4\mf( c8 d e fis | <g b>2 fis4) | <e g c>4( d8 c b a | <fis a d>2.) |
  d'8\< e fis g a b | c4\f <a c e>2 | b8\> a g fis e d | <b d g>2.\! |
}
leftA = \relative c {
  \clef bass \key g \major \time 3/4
  g8 d' b' d, b' d, | c8 e g e g e | a,8 e' c' e, c' e, | g,8 d' g d g d |
  e8 b' g' b, g' b, | c,8 g' e' g, e' g, | a,8 e' a e a c | d,8 a' fis' a, d a |
  <b, b'>2 <c c'>4 | <d d'>2 <fis fis'>4 | <g g'>4 <c, c'> <d d'> | <g, g'>2. |
}
rightB = \relative c''' {
  <g b>4\pp( fis8 e d c | <b d>2 a4) | <c e>4( b8 a g fis | <e g>2.) |
  <a c>4\mp( b8 c d e | <fis a>2 g4) | <e g>4( fis8 e d c | <b d>2.) |
  g8\cresc a b c d e | fis4 <d fis a>2\ff | g8\dim fis e d c b | <g b d g>2.\pp\fermata |
}
leftB = \relative c' {
  e8 b g b g b | d8 a fis a fis a | c8 g e g e g | b8 g e g e g |
  a8 e c e c e | d8 a fis a fis a | c8 g e g e g | g8 d b d b d |
  <e, e'>2 <c c'>4 | <d d'>2 <d d'>4 | <c c'>4 <d d'> <d d'> | <g, d' g>2.\fermata |
}
\score {
  \new PianoStaff <<
    \new Staff { \rightA \rightA \rightB \rightA \rightB \bar "|." }
    \new Staff { \leftA \leftA \leftB \leftA \leftB \bar "|." }
  >>
  \layout { }
}
