// @ts-check
// The rules and help page in English and Japanese.

const en = `
<h2>Dodgem: how to play</h2>
<p>Dodgem is a small race game invented by Colin Vout. Each player drives a few cars across
a square board and tries to be the first to get all of them off the far side.</p>
<h3>Rules (classic)</h3>
<ul>
  <li>On an <em>n</em>×<em>n</em> board Blue starts with <em>n</em>−1 cars down the left-hand file
  and Red with <em>n</em>−1 cars along the bottom rank; the bottom-left corner stays empty.</li>
  <li>Blue moves first; then the players take turns. Passing is not allowed.</li>
  <li>A blue car steps one square <strong>east</strong> (its forward direction), north or south.
  A red car steps one square <strong>north</strong> (forward), west or east.</li>
  <li>Cars only move onto empty squares: there is no jumping, capturing or stacking.</li>
  <li>A car standing on its exit edge (Blue: the right-hand file, Red: the top rank) may leave
  the board; leaving is a whole move.</li>
  <li>Get all of your own cars off the board and you win at once.</li>
  <li>Never leave your opponent without a move: a player who cannot move on their turn
  <strong>wins</strong>.</li>
  <li>When the same position (with the same side to move) turns up for the third time, the game is
  drawn.</li>
</ul>
<h3>Other variants</h3>
<ul>
  <li><strong>Blocked player loses</strong>: as classic, but having no move loses.</li>
  <li><strong>Misère</strong>: the first to clear all cars loses.</li>
  <li><strong>Piecepack</strong>: 6×6; Red coins go north and Green coins go south, both may step
  sideways; a coin may leave from any file of its far rank, and a player who cannot move passes.</li>
</ul>
<h3>Using this page</h3>
<ul>
  <li>Click or tap one of your cars, then one of the marked squares. Press the same car twice
  quickly (double-click or double-tap), or the arrow beyond the edge, to drive it off the board.</li>
  <li>Keyboard: focus the board with Tab, move with the arrow keys, Enter or Space to pick up and
  put down, Enter again on the picked-up car (or X) to leave the board, Escape to drop it.</li>
  <li>The <em>⇅</em> switch at the top (or the F key) turns the board round, the other side at the
  bottom, in every page with a board; the browser remembers it.</li>
  <li><em>New game</em> chooses the game, variant and board size and, for each colour, a human or a
  computer level (1 is gentle; 4 plays perfectly where its table is ready and by search elsewhere).
  Tick <em>alternate colours</em> to switch sides every game: the fair way to play a series.</li>
  <li>During a game: <em>Undo</em>, <em>Redo</em>, <em>Resign</em> and <em>Swap sides</em> (you take
  the computer's colour).</li>
  <li><em>Watch</em> lets the computers play each other. Pick a speed — 3 s or 0.3 s per move, or
  instant — or <em>Watch 100 games</em> for a long run with a running score; <em>Pause</em> stops
  and continues.</li>
  <li>The record counts every game played to its end on this page (a resignation too), per
  settings, and is kept in this browser; <em>Reset</em> clears it. A game opened from a link or a
  file is never counted.</li>
  <li><em>Analysis</em> colours every legal move: green wins, amber draws, red loses, with the number of
  plies to the end under best play. The chart shows how the value moved during the game; click a point
  to go back to it. Where no table exists (Dot Dash, Dodgem from 6×6), level 4's search gives an
  <em>estimate</em> instead: a bar, the depth it looked ahead and the line it expects; the moves are
  underlined by how much of the estimate each one gave away.</li>
  <li>Undo, redo, the move list, record export and import and <em>Copy link</em> (the link holds the
  whole game) let you study and share positions.</li>
</ul>
<h3>What is known</h3>
<p>With perfect play 3×3 is a win for the first player (in 19 plies), while 4×4 and 5×5 are draws.
Start by beating the computer on 3×3 as Blue. On larger boards aim to win with Blue and to hold the draw
with Red; if the computer announces a forced win, remember that position and study it.</p>
<h2>Dot Dash</h2>
<p>Dot Dash, by Phil Leduc, is a line game on the points of a square grid (7×7 to 19×19).</p>
<ul>
  <li>Setup (pie rule): one player places three stones — one of one colour and two of the other — and
  the other player chooses a colour. The owner of the single stone moves first. <em>Pie setup</em> on the
  board runs both steps; otherwise the standard three-stone start is used.</li>
  <li>A turn: slide one of your stones in a straight line (any of eight directions) at least three
  points, over empty points only. Then two stones from your reserve are dropped on the two points just
  behind where it stopped.</li>
  <li>Five or more of your stones in a row count as five-in-a-rows (a run of 9 counts two). At the start
  of your turn, if you have more than your opponent, you win; if you cannot move, you lose.</li>
  <li>Variants: <em>frozen stones</em> (a stone in a line of five never moves again) and
  <em>sacrificial capture</em> (land on the first enemy stone in your line; both go back to reserve).</li>
  <li>Click one of your stones, then one of the marked points. The lines drawn through stones are the
  fives each side has made.</li>
</ul>
<p class="small">References: Berlekamp, Conway and Guy, <em>Winning Ways for your Mathematical Plays</em>,
vol. 3, “Dodgem”; David desJardins’ 4×4 and 5×5 results (rec.games.abstract, 1996).</p>
`;

const ja = `
<h2>ドッジェムの遊び方</h2>
<p>ドッジェムはコリン・ヴァウトが考案した小さな競走ゲームです。自分の車を盤の向こう側へ走らせ、
全部を先に盤外へ出したほうが勝ちです。</p>
<h3>ルール(標準)</h3>
<ul>
  <li><em>n</em>×<em>n</em> の盤で、青は左端の列に <em>n</em>−1 台、赤は最下段に <em>n</em>−1 台を置きます。
  左下の隅は空けておきます。</li>
  <li>青が先手で、交互に1手ずつ指します。パスはできません。</li>
  <li>青の車は<strong>右</strong>(前進)か上下へ1マス、赤の車は<strong>上</strong>(前進)か左右へ1マス動きます。</li>
  <li>動けるのは空いているマスだけです。飛び越し・取り・重ねはありません。</li>
  <li>出口の縁(青は右端の列、赤は最上段)にいる車は盤外へ出られます。出ることで1手です。</li>
  <li>自分の車を全部出した人がその場で勝ちです。</li>
  <li>相手を動けなくしてはいけません。自分の手番に動ける手がなければ、その人の<strong>勝ち</strong>です。</li>
  <li>同じ局面(手番も同じ)が3回現れたら引き分けです。</li>
</ul>
<h3>ほかのルール</h3>
<ul>
  <li><strong>手詰まりは負け</strong>: 動けない側が負けになります。</li>
  <li><strong>ミゼール</strong>: 先に車を全部出した側が負けです。</li>
  <li><strong>ピースパック</strong>: 6×6。赤は上へ、緑は下へ進み、どちらも横にも動けます。
  奥の段ならどの列からでも盤外へ出られ、動けないときはパスします。</li>
</ul>
<h3>このページの使い方</h3>
<ul>
  <li>自分の車をクリック(タップ)し、印の付いたマスを選びます。同じ車をすばやく2回押す
  (ダブルクリック/ダブルタップ)か、盤の外の矢印を押すと盤外へ出します。</li>
  <li>キーボード: Tab で盤を選び、矢印キーで移動、Enter かスペースで車を持ち上げて置きます。
  持ち上げた車の上でもう一度 Enter(または X)で盤外へ、Esc で取り消しです。</li>
  <li>上の「⇅」(または F キー)で盤を反転し、相手側を手前にできます。盤のあるどのページでも使え、ブラウザが覚えています。</li>
  <li>「新しい対局」でゲーム・ルール・盤の大きさと、色ごとに人間かコンピュータのレベル(1はやさしく、
  4はデータベースがあれば完全、なければ探索)を選びます。「先後を交代」を選ぶと対局ごとに色が入れ替わります。</li>
  <li>対局中は「待った」「進める」「投了」「先後入れ替え」が使えます。</li>
  <li>「観戦」でコンピュータ同士が対局します。1手3秒・0.3秒・瞬時から速さを選ぶか、「100局観戦」で
  成績を数えながら連続対局します。「一時停止」で止めて再開できます。</li>
  <li>成績は、このページで終局まで指した対局(投了を含む)を設定ごとに数え、このブラウザに保存します。
  「リセット」で消せます。リンクやファイルから開いた対局は数えません。</li>
  <li>「解析」を入れると、すべての合法手が色分けされます。緑は勝ち、黄は引き分け、赤は負けで、数字は最善手順で
  終局までの手数です。グラフは対局中の評価の移り変わりで、点を押すとその局面に戻ります。データベースのない盤
  (ドットダッシュ、6×6 以上のドッジェム)では、代わりにレベル4の探索による<em>推定</em>を示します。形勢のバー、
  読んだ深さ、予想手順で、指し手には推定でどれだけ損をしたかの下線が付きます。</li>
  <li>待った・進める・棋譜一覧・棋譜の書き出しと読み込み・「リンクをコピー」(対局全体を含みます)で
  局面を研究したり共有したりできます。</li>
</ul>
<h3>分かっていること</h3>
<p>完全に指すと 3×3 は先手必勝(19手)、4×4 と 5×5 は引き分けです。まず 3×3 で青を持って
コンピュータに勝てるようにしましょう。大きな盤では、青では勝ちを、赤では引き分けを目指します。
コンピュータが必勝を告げたら、その局面を覚えて研究してみてください。</p>
<h2>ドットダッシュ</h2>
<p>フィル・ルダックのドットダッシュは、正方形の格子の点(7×7〜19×19)で遊ぶ並べ系のゲームです。</p>
<ul>
  <li>配置(パイ・ルール): 一人が石を3個置きます(一方の色を1個、もう一方の色を2個)。
  もう一人が色を選び、1個だけの石の持ち主が先手です。盤の上の「パイ・ルールで配置」で両方の手順を行えます。
  使わなければ標準の3個の配置で始まります。</li>
  <li>手番: 自分の石を1個、8方向のどれかへ一直線に3点以上滑らせます。通る点はすべて空いていなければなりません。
  止まった点のすぐ後ろの2点に、持ち石から2個を置きます。</li>
  <li>自分の石が5個以上一直線に並ぶと五目になります(9個なら2つ)。自分の手番の初めに相手より五目が多ければ勝ち、
  動ける手がなければ負けです。</li>
  <li>ルールの種類: 「凍結石」(五目の中の石は二度と動けない)と「犠牲取り」(進む線の最初の相手の石に着地し、
  両方の石を持ち石に戻す)。</li>
  <li>自分の石をクリックし、印の付いた点を選びます。石を貫く線は、それぞれが作った五目です。</li>
</ul>
<p class="small">参考: Berlekamp, Conway, Guy『Winning Ways for your Mathematical Plays』第3巻「Dodgem」、
David desJardins による 4×4・5×5 の解析(rec.games.abstract, 1996)。</p>
`;

// Japanese has no spaces between words: join the source lines of a paragraph without one.
/**
 * The help in a language. Japanese has no spaces between words, so the line breaks of the
 * source (which HTML would show as spaces) are removed there.
 * @param {string} lang
 * @param {string} [game] the game on the board: its rules come first
 * @returns {string}
 */
export function helpHtml(lang, game = "dodgem") {
  const html = lang === "ja" ? ja.replace(/\s*\n\s*/g, "") : en;
  if (game !== "dotdash") return html;
  // Dot Dash's rules first when Dot Dash is on the board; Dodgem's and the references follow
  const start = html.indexOf(lang === "ja" ? "<h2>ドットダッシュ</h2>" : "<h2>Dot Dash</h2>");
  const end = html.indexOf('<p class="small">');
  if (start < 0 || end < start) return html;
  return html.slice(start, end) + html.slice(0, start) + html.slice(end);
}
