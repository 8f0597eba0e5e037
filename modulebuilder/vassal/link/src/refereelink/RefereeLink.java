package refereelink;

import java.awt.Point;
import java.awt.Rectangle;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

import javax.swing.KeyStroke;
import javax.swing.SwingUtilities;

import VASSAL.build.AbstractConfigurable;
import VASSAL.build.Buildable;
import VASSAL.build.GameModule;
import VASSAL.build.module.BasicLogger;
import VASSAL.build.module.Chatter;
import VASSAL.build.module.GameComponent;
import VASSAL.build.module.Map;
import VASSAL.build.module.documentation.HelpFile;
import VASSAL.build.module.map.boardPicker.board.mapgrid.Zone;
import VASSAL.chat.CommandDecoder;
import VASSAL.command.Command;
import VASSAL.command.CommandEncoder;
import VASSAL.command.RemovePiece;
import VASSAL.configure.BooleanConfigurer;
import VASSAL.configure.StringConfigurer;
import VASSAL.counters.Decorator;
import VASSAL.counters.GamePiece;
import VASSAL.counters.Properties;
import VASSAL.counters.PropertyExporter;

/**
 * The referee link: every act the player makes in VASSAL goes to a hosted game of the referee service as it is
 * made, and the referee's ruling comes back into the chat as a logged chat line (so it is in the .vlog and the
 * opponent sees it).
 *
 * What is sent is VASSAL's own encoding of each logged step, the commands a .vlog's LOG step holds, so the
 * service reads a game played live exactly as it reads the finished .vlog.  The link watches the list of steps
 * the engine's logger keeps for its Undo and its .vlog (every step a player makes, an Undo included, lands
 * there in order, whether or not a log file is being written); steps that came from elsewhere -- an opponent's
 * act received from the server, a step of a .vlog being replayed -- are not this player's and are not sent.
 *
 * Settings: the service URL, the game id and the player's token, from the environment (REFEREE_URL,
 * REFEREE_GAME, REFEREE_TOKEN) or else from the player's preferences (tab "Referee").  The token is sent only
 * in the Authorization header: never in the module, a save, a log or the chat.
 *
 * Never in the way: the sending is done by one background thread; a referee that is unreachable or slow
 * delays no move.  Steps queue and are sent in order with the count the referee has (expected_index); the
 * chat says once that the link is down and once that it is back.  A wrong token is one chat line.
 *
 * The board follows the referee when the player allows it (preference "Apply the referee's results on the
 * board", off by default; the environment variable REFEREE_APPLY=1 for scripted starts): the answer's board
 * changes (a unit disordered or rallied: its back layer's key; eliminated or routed: to the module's box of that
 * name, the Eliminated box being the dead pile) are applied with the pieces' own commands as one logged step of
 * the link's own, so the opponent's board and the .vlog get them, and the referee reads that step as the
 * bookkeeping of results it has ruled.  Only the answers to this player's own steps carry changes: an
 * opponent's client (live, or stepping through a .vlog by e-mail) receives the applied step, never applies it
 * again.
 */
public class RefereeLink extends AbstractConfigurable implements GameComponent, CommandEncoder {
  public static final String PREFIX = "* Referee: ";
  static final String RULING_CHAT = Chatter.DisplayText.PREFIX + PREFIX;   // a referee line as VASSAL encodes it
  static final String PREF_URL = "RefereeURL";
  static final String PREF_GAME = "RefereeGame";
  static final String PREF_TOKEN = "RefereeToken";
  static final String PREF_APPLY = "RefereeApply";

  private final Object lock = new Object();
  private final List<List<String>> steps = new ArrayList<>();        // every step of this player, in order
  private final List<Long> madeAt = new ArrayList<>();               // System.nanoTime() of each step
  private int accepted;                                               // how many of them the referee has
  private String start;                                               // the position the game started from
  private boolean down;
  private boolean refused;
  private boolean waitingSaid;
  private boolean running;
  private boolean applying;                                            // results being applied: send nothing yet
  private Thread sender;
  private final Set<Command> ours = Collections.newSetFromMap(new IdentityHashMap<>());
  private List<Command> logInput;
  private HttpClient http;
  private final String linkId = newSeed().substring(0, 16);         // this VASSAL run's stream of steps

  // ------------------------------------------------------------------ the component

  @Override
  public String[] getAttributeNames() {
    return new String[0];
  }

  @Override
  public String[] getAttributeDescriptions() {
    return new String[0];
  }

  @Override
  public Class<?>[] getAttributeTypes() {
    return new Class<?>[0];
  }

  @Override
  public void setAttribute(String key, Object value) {
  }

  @Override
  public String getAttributeValueString(String key) {
    return null;
  }

  @Override
  public Class<?>[] getAllowableConfigureComponents() {
    return new Class<?>[0];
  }

  @Override
  public HelpFile getHelpFile() {
    return null;
  }

  public static String getConfigureTypeName() {
    return "Referee link";
  }

  @Override
  public void removeFrom(Buildable parent) {
    GameModule.getGameModule().getGameState().removeGameComponent(this);
    GameModule.getGameModule().removeCommandEncoder(this);
  }

  @Override
  public void addTo(Buildable parent) {
    final GameModule gm = (GameModule) parent;
    gm.getGameState().addGameComponent(this);
    gm.getPrefs().addOption("Referee", new StringConfigurer(PREF_URL, "Referee service URL"));
    gm.getPrefs().addOption("Referee", new StringConfigurer(PREF_GAME, "Referee game id"));
    gm.getPrefs().addOption("Referee", new StringConfigurer(PREF_TOKEN, "Your side's referee token"));
    gm.getPrefs().addOption("Referee", new BooleanConfigurer(PREF_APPLY, "Apply the referee's results on the board",
      Boolean.FALSE));
    decodeFirst(gm);
  }

  /**
   * A referee line that reaches this VASSAL from elsewhere (the other player's link, through the server or in
   * a .vlog stepped through) is decoded as what it is, a RulingText, so that the engine's Undo skips it here
   * too: decoded as plain chat it would be the step the player's Undo takes back, where the referee (and the
   * .vlog reader) take the Undo for the player's latest act.  Everything else is left to the other decoders.
   */
  @Override
  public Command decode(String command) {
    return command.startsWith(RULING_CHAT)
      ? new RulingText(GameModule.getGameModule().getChatter(), command.substring(Chatter.DisplayText.PREFIX.length()))
      : null;
  }

  @Override
  public String encode(Command c) {
    return null;          // the chat's encoder writes a RulingText as the chat line it is
  }

  /** Registers the decoder before the chat's, which would decode a referee line as plain chat. */
  private void decodeFirst(GameModule gm) {
    try {
      final Field f = GameModule.class.getDeclaredField("commandEncoders");
      f.setAccessible(true);
      final CommandEncoder[] old = (CommandEncoder[]) f.get(gm);
      final CommandEncoder[] now = new CommandEncoder[old.length + 1];
      now[0] = this;
      System.arraycopy(old, 0, now, 1, old.length);
      f.set(gm, now);
    }
    catch (ReflectiveOperationException | RuntimeException e) {
      gm.addCommandEncoder(this);     // after the chat's: the other player's lines stay plain chat here
    }
  }

  @Override
  public Command getRestoreCommand() {
    return null;            // nothing of the link goes into a save
  }

  @Override
  public void setup(boolean gameStarting) {
    if (gameStarting) {
      // After the whole position is on the board (the restore command is still executing now).
      SwingUtilities.invokeLater(this::begin);
    }
  }

  // ------------------------------------------------------------------ settings

  static String setting(String env, String pref) {
    final String v = System.getenv(env);
    if (v != null && !v.isEmpty()) {
      return v.trim();
    }
    final Object p = GameModule.getGameModule().getPrefs().getValue(pref);
    return p == null ? "" : p.toString().trim();
  }

  /** Whether the link applies the referee's results on the board: REFEREE_APPLY (1/true or 0/false) else the
   *  preference, off by default. */
  static boolean applying() {
    final String v = System.getenv("REFEREE_APPLY");
    if (v != null && !v.trim().isEmpty()) {
      return "1".equals(v.trim()) || "true".equalsIgnoreCase(v.trim());
    }
    return Boolean.TRUE.equals(GameModule.getGameModule().getPrefs().getValue(PREF_APPLY));
  }

  private String url() {
    final String u = setting("REFEREE_URL", PREF_URL);
    return u.endsWith("/") ? u.substring(0, u.length() - 1) : u;
  }

  private String route(String tail) {
    return url() + "/api/v1/games/" + setting("REFEREE_GAME", PREF_GAME) + tail;
  }

  // ------------------------------------------------------------------ watching the logger

  private void begin() {
    if (url().isEmpty() || setting("REFEREE_GAME", PREF_GAME).isEmpty()
        || setting("REFEREE_TOKEN", PREF_TOKEN).isEmpty()) {
      return;               // not linked: VASSAL as usual
    }
    final GameModule gm = GameModule.getGameModule();
    synchronized (lock) {
      if (start == null) {
        start = gm.encode(gm.getGameState().getRestoreCommand());
      }
      if (running) {
        return;
      }
      running = true;
    }
    try {
      final BasicLogger logger = (BasicLogger) gm.getLogger();
      final Field out = BasicLogger.class.getDeclaredField("logOutput");
      out.setAccessible(true);
      final Field in = BasicLogger.class.getDeclaredField("logInput");
      in.setAccessible(true);
      @SuppressWarnings("unchecked")
      final List<Command> input = (List<Command>) in.get(logger);
      logInput = input;
      @SuppressWarnings("unchecked")
      final List<Command> old = (List<Command>) out.get(logger);
      out.set(logger, new Watched(old));
    }
    catch (ReflectiveOperationException | RuntimeException e) {
      say("the link cannot watch this VASSAL's log (" + e + "); acts are not sent");
      return;
    }
    http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(2)).build();
    sender = new Thread(() -> {
      try {
        sendLoop();
      }
      catch (Throwable t) {     // a bug of the link's own: said once, and VASSAL goes on without it
        say("the link stopped (" + t + ")");
      }
    }, "referee-link");
    sender.setDaemon(true);
    sender.start();
    say("linked to game " + setting("REFEREE_GAME", PREF_GAME) + " at " + url());
  }

  /** The logger's list of logged steps, telling the link of each step added. */
  private final class Watched extends ArrayList<Command> {
    private static final long serialVersionUID = 1L;

    Watched(List<Command> old) {
      super(old);
    }

    @Override
    public boolean add(Command c) {
      final boolean r = super.add(c);
      logged(c);
      return r;
    }
  }

  private void logged(Command c) {
    try {
      if (c == null || logInput != null && containsSame(logInput, c)) {
        return;           // a step of a .vlog being replayed: its player's link sent it
      }
      if (fromServer()) {
        return;           // an opponent's act (or their link's lines) received from the server: their link sent it
      }
      final List<String> commands = new ArrayList<>();
      leaves(c, commands);
      synchronized (lock) {
        steps.add(commands);
        madeAt.add(System.nanoTime());
        if (!(c instanceof RulingText)) {
          lock.notifyAll();       // the referee's own lines wait for the next act: they need no ruling
        }
      }
    }
    catch (RuntimeException e) {
      say("the link could not read a step (" + e + ")");
    }
  }

  /**
   * True for a step the engine logs as it executes a message received from the server: VASSAL's CommandDecoder
   * decodes each message, then executes and logs it (on the event thread), and nothing else calls it.  Asked
   * of the stack rather than by matching the message's text: the text a command arrives in is not always what
   * it encodes to once decoded (a move's step begins with an empty bookkeeping command on the wire, which the
   * decoding drops), and the decoder may log the step before any other listener of the message has run.
   */
  private static boolean fromServer() {
    return StackWalker.getInstance().walk(frames ->
      frames.anyMatch(f -> f.getClassName().equals(CommandDecoder.class.getName())));
  }

  private static boolean containsSame(List<Command> list, Command c) {
    for (final Command x : list) {
      if (x == c) {
        return true;
      }
    }
    return false;
  }

  private static Method encodeOne;

  /** The step's commands in the order the engine executes them, each encoded alone: a .vlog step's LOG items. */
  static void leaves(Command c, List<String> out) {
    final String s = encodeAlone(c);
    if (s != null && !s.isEmpty()) {
      out.add(s);
    }
    for (final Command sub : c.getSubCommands()) {
      leaves(sub, out);
    }
  }

  private static String encodeAlone(Command c) {
    try {
      if (encodeOne == null) {
        encodeOne = GameModule.class.getDeclaredMethod("encodeSubCommand", Command.class);
        encodeOne.setAccessible(true);
      }
      return (String) encodeOne.invoke(GameModule.getGameModule(), c);
    }
    catch (ReflectiveOperationException e) {
      throw new IllegalStateException(e);
    }
  }

  // ------------------------------------------------------------------ sending

  private void sendLoop() {
    long backoff = 250;
    while (!refused && !seeded()) {
      sleep(backoff);
      backoff = Math.min(backoff * 2, waitingSaid ? 2000 : 4000);   // the other side's seed: soon after it is in
    }
    backoff = 250;
    while (true) {
      final int from;
      final List<List<String>> batch;
      final String begin;
      synchronized (lock) {
        while (!refused && (accepted >= steps.size() || applying)) {
          try {
            lock.wait();
          }
          catch (InterruptedException e) {
            return;
          }
        }
        if (refused) {
          return;
        }
        from = accepted;
        batch = new ArrayList<>(steps.subList(from, Math.min(steps.size(), from + 500)));
        begin = from == 0 ? start : null;
      }
      final boolean apply = applying();
      final StringBuilder body = new StringBuilder("{\"link\":\"").append(linkId)
        .append("\",\"expected_index\":").append(from);
      if (apply) {
        body.append(",\"apply\":true");
      }
      if (begin != null) {
        body.append(",\"start\":");
        Json.string(body, begin);
      }
      body.append(",\"steps\":[");
      for (int i = 0; i < batch.size(); i++) {
        body.append(i == 0 ? "[" : ",[");
        final List<String> step = batch.get(i);
        for (int k = 0; k < step.size(); k++) {
          if (k > 0) {
            body.append(',');
          }
          Json.string(body, step.get(k));
        }
        body.append(']');
      }
      body.append("]}");
      try {
        final HttpResponse<String> r = http.send(
          HttpRequest.newBuilder(URI.create(route("/vassal")))
            .timeout(Duration.ofSeconds(10))
            .header("Content-Type", "application/json")
            .header("Authorization", "Bearer " + setting("REFEREE_TOKEN", PREF_TOKEN))
            .POST(HttpRequest.BodyPublishers.ofString(body.toString(), StandardCharsets.UTF_8))
            .build(),
          HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        final Object answer = Json.parse(r.body());
        final int status = r.statusCode();
        if (status == 200) {
          final int next = Json.integer(Json.get(answer, "next_index"), from + batch.size());
          final List<String> lines = new ArrayList<>();
          if (down) {
            down = false;
            lines.add("the link is back: " + (next - from) + " step(s) caught up");
          }
          for (final Object line : Json.list(Json.get(answer, "lines"))) {
            lines.add(String.valueOf(line));
          }
          final long made;
          synchronized (lock) {
            accepted = next;
            made = madeAt.get(Math.max(from, Math.min(next, madeAt.size()) - 1));
          }
          final List<?> changes = apply ? Json.list(Json.get(answer, "changes")) : null;
          if (changes != null && !changes.isEmpty()) {
            // Until the results are on the board (a step of the link's own), a step sent would be read against
            // the board without them, and the referee would say it differs.
            synchronized (lock) {
              applying = true;
            }
          }
          show(lines, made, next - from, changes);
          backoff = 250;
        }
        else if (status == 409 && Json.get(Json.get(answer, "error"), "next_index") != null) {
          // The referee has another count of this side's steps (it restarted, or an answer was lost).
          synchronized (lock) {
            accepted = Math.max(0, Math.min(steps.size(),
              Json.integer(Json.get(Json.get(answer, "error"), "next_index"), 0)));
          }
        }
        else if (status == 401 || status == 403 || status == 404) {
          synchronized (lock) {
            refused = true;
          }
          say("the referee refuses this link (" + message(answer, status)
            + "): check the game id and your token in Preferences > Referee; acts are not sent");
          return;
        }
        else {
          // A step the referee cannot take at all: say so once, and go on with the next.
          say("step not taken (" + message(answer, status) + ")");
          synchronized (lock) {
            accepted = Math.min(steps.size(), from + batch.size());
          }
        }
      }
      catch (java.io.IOException e) {
        if (!down) {
          down = true;
          say("the referee cannot be reached: your acts are kept and sent when it is back");
        }
        sleep(backoff);
        backoff = Math.min(backoff * 2, 4000);
      }
      catch (InterruptedException e) {
        return;
      }
      catch (RuntimeException e) {
        say("the referee's answer could not be read (" + e + ")");
        sleep(backoff);
        backoff = Math.min(backoff * 2, 4000);
      }
    }
  }

  /**
   * The referee dice need each side's seed before the first event, each from its own client: when the game
   * waits for this side's, the link sends one it draws here (SecureRandom).  True once the dice wait for
   * nothing (or the game uses the players' dice).  While they wait for the other side's part (by e-mail, the
   * opponent may not have linked yet), the acts are kept and sent once it is in: the referee would refuse
   * them now, and a refused act is not ruled again.
   */
  private boolean seeded() {
    try {
      final HttpResponse<String> r = http.send(
        HttpRequest.newBuilder(URI.create(route(""))).timeout(Duration.ofSeconds(10))
          .header("Authorization", "Bearer " + setting("REFEREE_TOKEN", PREF_TOKEN)).GET().build(),
        HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
      final Object game = Json.parse(r.body());
      if (r.statusCode() != 200) {
        if (r.statusCode() == 401 || r.statusCode() == 404) {
          synchronized (lock) {
            refused = true;
            lock.notifyAll();
          }
          say("the referee refuses this link (" + message(game, r.statusCode())
            + "): check the game id and your token in Preferences > Referee; acts are not sent");
        }
        return false;
      }
      final Object side = Json.get(game, "side");
      boolean mine = false;            // "French's seed or commitment": what the dice wait for, side by side
      final List<String> others = new ArrayList<>();
      for (final Object w : Json.list(Json.get(Json.get(game, "dice"), "waiting_for"))) {
        final boolean own = String.valueOf(w).startsWith(side + "'s ");
        mine |= own;
        if (!own) {
          others.add(String.valueOf(w));
        }
      }
      if (!mine) {
        if (others.isEmpty()) {
          return true;
        }
        if (!waitingSaid) {
          waitingSaid = true;
          say("the referee's dice wait for " + String.join(", ", others)
            + ": your acts are kept and sent once it is in");
        }
        return false;
      }
      final HttpResponse<String> s = http.send(
        HttpRequest.newBuilder(URI.create(route("/dice"))).timeout(Duration.ofSeconds(10))
          .header("Content-Type", "application/json")
          .header("Authorization", "Bearer " + setting("REFEREE_TOKEN", PREF_TOKEN))
          .POST(HttpRequest.BodyPublishers.ofString("{\"seed\":\"" + newSeed() + "\"}", StandardCharsets.UTF_8))
          .build(),
        HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
      if (s.statusCode() == 200) {
        say("your seed for the referee dice is sent (" + side + "): no one can steer the rolls");
        return false;                   // asked again at once: do the dice still wait for the other side?
      }
      return s.statusCode() == 409;     // fixed already (dice_fixed / dice_open): nothing more to send
    }
    catch (java.io.IOException e) {
      if (!down) {
        down = true;
        say("the referee cannot be reached: your acts are kept and sent when it is back");
      }
      return false;
    }
    catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private static String message(Object answer, int status) {
    final Object m = Json.get(Json.get(answer, "error"), "message");
    return m == null ? "HTTP " + status : m.toString();
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    }
    catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  // ------------------------------------------------------------------ the chat

  /** A referee line: a chat line Undo skips (the player's Undo takes back their act, not the ruling). */
  static final class RulingText extends Chatter.DisplayText {
    RulingText(Chatter chatter, String s) {
      super(chatter, s);
    }

    @Override
    public Command myUndoCommand() {
      return null;
    }
  }

  private void say(String line) {
    show(Collections.singletonList(line), 0, 0, null);
  }

  /**
   * The lines in the chat as one logged step (both players see it; it is in the .vlog).  With the environment
   * variable REFEREE_LINK_TIMES naming a file, the time from the act (``made``, the last of ``count`` steps
   * answered) to its lines in the chat is appended to it, for the latency benchmark (bench/bench_live.py).
   *
   * ``changes`` (when the player lets the link apply the referee's results): applied in the same step, after
   * the lines, headed "applied on the board: ...".  One step, so the referee never reads a step of the link's
   * between the ruling and its results on the board (it would say the board differs); sent at once.
   */
  private void show(List<String> lines, long made, int count, List<?> changes) {
    final boolean results = changes != null && !changes.isEmpty();
    if (lines.isEmpty() && !results) {
      return;
    }
    SwingUtilities.invokeLater(() -> {
      try {
        log(lines, made, count, changes);
      }
      finally {
        if (results) {
          synchronized (lock) {
            this.applying = false;
            lock.notifyAll();
          }
        }
      }
    });
  }

  /** The lines (and the results applied) as one logged step, on the event thread. */
  private void log(List<String> lines, long made, int count, List<?> changes) {
    final boolean results = changes != null && !changes.isEmpty();
    final GameModule gm = GameModule.getGameModule();
    final Chatter chatter = gm.getChatter();
    Command all = null;
    for (final String line : lines) {
      final Chatter.DisplayText t = results ? new AppliedText(chatter, PREFIX + line)
        : new RulingText(chatter, PREFIX + line);
      t.execute();
      all = all == null ? t : all.append(t);
    }
    if (results) {
      final List<String> done = new ArrayList<>();
      final Command acts = apply(changes, done);
      if (acts != null) {
        final AppliedText t = new AppliedText(chatter, PREFIX + "applied on the board: " + String.join("; ", done));
        t.execute();
        all = all == null ? t : all.append(t);
        all.append(acts);
        for (final Map m : Map.getMapList()) {
          m.repaint();
        }
      }
    }
    if (all == null) {
      return;
    }
    gm.sendAndLog(all);
    final String times = System.getenv("REFEREE_LINK_TIMES");
    if (made != 0 && times != null && !times.isEmpty()) {
      try (java.io.FileWriter w = new java.io.FileWriter(times, StandardCharsets.UTF_8, true)) {
        w.write(String.format(java.util.Locale.ROOT, "%.3f %d %d%n", (System.nanoTime() - made) / 1e6, count,
          lines.size()));
      }
      catch (java.io.IOException e) {
        // a benchmark's file: nothing for the player
      }
    }
  }

  // ------------------------------------------------------------------ the board follows the referee

  /** A referee line of a step that applies results: chat Undo skips like a RulingText, its own class so that
   *  the link sends the step at once (a step of RulingTexts waits for the next act). */
  static final class AppliedText extends Chatter.DisplayText {
    AppliedText(Chatter chatter, String s) {
      super(chatter, s);
    }

    @Override
    public Command myUndoCommand() {
      return null;
    }
  }

  /**
   * The answer's board changes, applied on the board (on the event thread): a back layer's key sent to the piece
   * (keyEvent: the engine's ChangePiece, reported by the piece's Report trait), a piece moved into a holding
   * box (Map.placeOrMerge: the engine's MovePiece) or removed (RemovePiece) when the module has no such box and
   * the unit is out of the game.  A piece already as the referee has it is left alone.  Returns the commands
   * (null when nothing changed) and adds to ``done`` what was done, in words.
   */
  private static Command apply(List<?> changes, List<String> done) {
    final GameModule gm = GameModule.getGameModule();
    Command acts = null;
    for (final Object change : changes) {
      final Object id = Json.get(change, "piece");
      final GamePiece found = id == null ? null : gm.getGameState().getPieceForId(id.toString());
      if (found == null) {
        continue;       // not on this board (deleted by hand): the next comparison says so
      }
      final GamePiece piece = Decorator.getOutermost(found);
      final String name = String.valueOf(Json.get(change, "name"));
      final String what = String.valueOf(Json.get(change, "do"));
      Command c = null;
      if ("layer".equals(what)) {
        final String layer = String.valueOf(Json.get(change, "layer"));
        final boolean wanted = Boolean.TRUE.equals(Json.get(change, "active"));
        if ("true".equals(String.valueOf(piece.getProperty(layer + "_Active"))) != wanted) {
          if (piece instanceof PropertyExporter) {       // what the Report trait compares with, as KeyBuffer
            piece.setProperty(Properties.SNAPSHOT, ((PropertyExporter) piece).getProperties());
          }
          c = piece.keyEvent(keyStroke(String.valueOf(Json.get(change, "key"))));
          done.add(name + (wanted ? " to its " + layer + " side" : " back to its front"));
        }
      }
      else if ("box".equals(what)) {
        final String box = String.valueOf(Json.get(change, "box"));
        final Map map = boxMap(box);
        if (map != null) {
          c = map.placeOrMerge(piece, boxPoint(map, box));
          done.add(name + " to " + box);
        }
        else if (Boolean.TRUE.equals(Json.get(change, "dead"))) {
          c = new RemovePiece(piece);
          c.execute();
          done.add(name + " removed");
        }
      }
      if (c != null && !c.isNull()) {
        acts = acts == null ? c : acts.append(c);
      }
    }
    return acts;
  }

  /** A key as the module's buildFile writes it: "keyCode,modifiers" (Ctrl+F is "70,130"). */
  static KeyStroke keyStroke(String s) {
    final String[] parts = s.split(",");
    return KeyStroke.getKeyStroke(Integer.parseInt(parts[0].trim()),
      parts.length > 1 ? Integer.parseInt(parts[1].trim()) : 0);
  }

  private static Map boxMap(String box) {
    for (final Map m : Map.getMapList()) {
      if (m.findZone(box) != null) {
        return m;
      }
    }
    return null;
  }

  /** The centre of the box, in its map's coordinates (the one the map itself finds in that box). */
  private static Point boxPoint(Map map, String box) {
    final Zone zone = map.findZone(box);
    final Rectangle r = zone.getBounds();
    final Point centre = new Point((int) r.getCenterX(), (int) r.getCenterY());
    final Rectangle board = zone.getBoard() == null ? new Rectangle() : zone.getBoard().bounds();
    for (final Point p : new Point[] {centre, new Point(centre.x + board.x, centre.y + board.y)}) {
      final Zone there = map.findZone(p);
      if (there != null && box.equals(there.getName())) {
        return p;
      }
    }
    return centre;
  }

  /** A seed for the referee dice from this client, once, if the game waits for this side's (issue of trust). */
  static String newSeed() {
    final byte[] b = new byte[32];
    new SecureRandom().nextBytes(b);
    final StringBuilder s = new StringBuilder();
    for (final byte x : b) {
      s.append(String.format("%02x", x));
    }
    return s.toString();
  }
}
