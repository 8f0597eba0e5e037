import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.swing.text.Document;

import VASSAL.build.GameModule;
import VASSAL.build.module.BasicLogger;
import VASSAL.build.module.Chatter;
import VASSAL.build.module.GameState;
import VASSAL.build.module.Map;
import VASSAL.chat.ChatServerConnection;
import VASSAL.chat.ChatServerFactory;
import VASSAL.chat.HybridClient;
import VASSAL.chat.Player;
import VASSAL.chat.Room;
import VASSAL.chat.SimpleRoom;
import VASSAL.chat.ui.SynchAction;
import VASSAL.chat.node.NodeClient;
import VASSAL.chat.node.NodeClientFactory;
import VASSAL.chat.node.NodeRoom;
import VASSAL.chat.node.PrivateNodeClientFactory;
import VASSAL.counters.GamePiece;

/**
 * One player's VASSAL in a live server session, for the tests of the referee link online (tests/link): the
 * real engine, connected to a VASSAL server (VASSAL's own, VASSAL.chat.node.Server, on a local port) as a
 * player connects through the server controls, in a room shared with the other player.
 *
 * Usage: VOnline MODULE.vmod SETUP.vsav SCRIPT.json OUT.vlog
 *
 * It is the shared recorder (VRecord, on the class path) with what a session on a server adds: the recorder's
 * own actions (move, key, menu, roll, chat, undo, wait) are played by the recorder's own code, and the log is
 * begun and ended by its code too.  Script: {"player": NAME, "password": ID, "comment": TEXT,
 * "server": {"port": N, "room": ROOM, "join": true|false}, "actions": [...]}.
 *
 * Before the log begins the player connects to the server on 127.0.0.1:N with the private-server client
 * (PrivateNodeClientFactory: the client of a "private" entry of the server address book) and enters ROOM.
 * Without "join", the room is created with the player as its owner, as the room controls' "new room" does.
 * With "join", the player waits for the room to be opened, enters it, asks its owner for the game with the
 * player list's "Synchronize" action and waits for it: the owner's game replaces its own.
 *
 * Actions added to the recorder's:
 *   {"await": "chat", "text": T}                  until a line of the chat contains T (default 120 s, "timeout")
 *   {"await": "piece", "piece": P, "at": HEX}     until piece P stands on HEX
 *   {"shot": NAME}                                the player window (1600 x 1000) to NAME.png beside OUT.vlog
 * At the end, after the log is written, every line of the chat is printed as "chat: LINE", then the client
 * leaves the server.
 */
public class VOnline {
  static NodeClient client;
  static final AtomicBoolean synched = new AtomicBoolean();

  public static void main(String[] args) throws Exception {
    if (args.length != 4) {
      System.out.println("usage: VOnline MODULE.vmod SETUP.vsav SCRIPT.json OUT.vlog");
      System.exit(2);
    }
    final java.util.Map<String, Object> opts =
      MiniJson.map(MiniJson.parse(new String(Files.readAllBytes(Path.of(args[2])), StandardCharsets.UTF_8)));
    final List<Object> actions = MiniJson.list(opts.get("actions"));
    final java.util.Map<String, Object> server = MiniJson.map(opts.get("server"));
    final java.io.File setup = new java.io.File(args[1]).getAbsoluteFile();
    final java.io.File out = new java.io.File(args[3]).getAbsoluteFile();

    VCheck.initEngine();
    VRecord.onEdt("open module", () -> {
      VRecord.gm = VCheck.openModule(args[0]);
      VRecord.logger = (BasicLogger) VRecord.gm.getLogger();
      final String player = VRecord.str(opts, "player", "tester");
      final String password = VRecord.str(opts, "password", player);
      VRecord.gm.getPrefs().setValue(GameModule.REAL_NAME, player);
      VRecord.gm.getPrefs().setValue(GameModule.SECRET_NAME, password);
      GameModule.setUserId(password);
      System.out.println("player: " + player);
    });
    VRecord.stopIfProblems();
    VRecord.onEdt("load setup", () -> {
      final GameState gs = VRecord.gm.getGameState();
      gs.loadGameInForeground(setup);
      System.out.println("loaded setup " + setup + " gameStarted=" + gs.isGameStarted());
      if (!gs.isGameStarted()) VCheck.fail("the setup save did not start a game");
    });
    VRecord.stopIfProblems();

    connect(Integer.parseInt(VRecord.str(server, "port", "0")), VRecord.str(server, "room", "Game"),
      "true".equals(VRecord.str(server, "join", "false")));
    VRecord.stopIfProblems();

    VRecord.onEdt("begin log", () -> VRecord.beginLog(out, VRecord.str(opts, "comment", null)));
    VRecord.stopIfProblems();
    int n = 0;
    for (final Object a : actions) {
      final int idx = ++n;
      final java.util.Map<String, Object> act = MiniJson.map(a);
      if (act.containsKey("wait")) {
        System.out.println("action " + idx + "/" + actions.size() + ": " + MiniJson.write(act));
        Thread.sleep(Math.max(0L, Math.min(60_000L, ((Number) act.get("wait")).longValue())));
        VRecord.onEdt("after wait " + idx, () -> { });
      }
      else if (act.containsKey("shot")) {
        System.out.println("action " + idx + "/" + actions.size() + ": " + MiniJson.write(act));
        shoot(new java.io.File(out.getParentFile(), VRecord.str(act, "shot", "shot") + ".png"));
      }
      else if (act.containsKey("await")) {
        System.out.println("action " + idx + "/" + actions.size() + ": " + MiniJson.write(act));
        await(act);
      }
      else {
        VRecord.onEdt("action " + idx, () -> VRecord.runAction(idx, actions.size(), act, false));
      }
      VRecord.stopIfProblems();
    }
    VRecord.onEdt("end log", () -> VRecord.endLog(out));
    for (final ProcessHandle child : ProcessHandle.current().children().toArray(ProcessHandle[]::new)) {
      try {
        child.onExit().get(30, java.util.concurrent.TimeUnit.SECONDS);
      }
      catch (java.util.concurrent.TimeoutException e) {
        child.destroy();
      }
    }
    VRecord.stopIfProblems();
    VRecord.onEdt("chat", () -> {
      for (final String line : chatLines()) {
        System.out.println("chat: " + line);
      }
    });
    System.out.println("final:");
    VRecord.onEdt("final dump", () -> VCheck.dumpPieces(VRecord.gm));
    VRecord.onEdt("leave the server", () -> client.setConnected(false));
    Thread.sleep(300);
    VCheck.finish("VONLINE");
  }

  /**
   * Connects as the server controls do (the server address book's "private" entry builds the client through
   * ChatServerFactory, which also hangs the engine's CommandDecoder on it) and enters the room.
   */
  static void connect(int port, String roomName, boolean join) throws Exception {
    VRecord.onEdt("connect", () -> {
      final Properties p = new Properties();
      p.setProperty(ChatServerFactory.TYPE_KEY, PrivateNodeClientFactory.PRIVATE_TYPE);
      p.setProperty(NodeClientFactory.NODE_HOST, "127.0.0.1");
      p.setProperty(NodeClientFactory.NODE_PORT, String.valueOf(port));
      client = (NodeClient) ChatServerFactory.build(p);
      client.addPropertyChangeListener(ChatServerConnection.INCOMING_MSG, e -> {
        // the owner's game: a restore command, which begins as a save does
        if (String.valueOf(e.getNewValue()).startsWith("begin_save")) synched.set(true);
      });
      ((HybridClient) VRecord.gm.getServer()).setDelegate(client);
      client.setConnected(true);
      if (!client.isConnected()) throw new IllegalArgumentException("no connection to the server on port " + port);
    });
    until("the server's list of rooms", 60_000, () -> client.getRoom() != null);
    final boolean[] joined = new boolean[1];
    until("room '" + roomName + "' open to enter", 120_000, () -> {
      final Room existing = room(roomName);
      return existing == null ? !join : !((NodeRoom) existing).isLocked();
    });
    VRecord.onEdt("enter room", () -> {
      final Room existing = room(roomName);
      if (existing != null) {
        // Entered as a plain room: the engine's automatic request for the owner's game after entering a room
        // it does not own depends on the order of the server's next messages (it is lost when the first list
        // after the JOIN predates it); the joining player asks for it below instead, with the player list's
        // "Synchronize" action, once the server lists the player in the room.
        client.setRoom(new SimpleRoom(roomName));
        joined[0] = true;
        System.out.println("joined room " + roomName + " owned by " + ((NodeRoom) existing).getOwner());
      }
      else {
        final NodeRoom r = new NodeRoom(roomName);
        r.setOwner(client.getMyInfo().getId());
        client.setRoom(r);
        client.sendRoomInfo(r);
        System.out.println("created room " + roomName);
      }
    });
    until("being in room '" + roomName + "'", 60_000,
      () -> client.getRoom() != null && roomName.equals(client.getRoom().getName()));
    if (joined[0]) {
      // the room's owner comes with the room's information, a message of its own after the list of rooms
      until("the room's owner", 60_000,
        () -> client.getRoom() instanceof NodeRoom && ((NodeRoom) client.getRoom()).getOwningPlayer() != null);
      VRecord.onEdt("synchronize", () -> {
        final NodeRoom in = (NodeRoom) client.getRoom();
        final Player owner = in.getOwningPlayer();
        if (owner == null) throw new IllegalArgumentException("room " + roomName + " lists no owner");
        final SynchAction synch = new SynchAction(owner, client);
        if (!synch.isEnabled()) {
          throw new IllegalArgumentException("'Synchronize' with " + owner.getName() + " is disabled");
        }
        synch.actionPerformed(null);
      });
      until("the owner's game", 120_000, synched::get);
      VRecord.onEdt("after synchronisation", () -> { });        // the decoder's work runs before this
      System.out.println("synchronised with the room's owner");
    }
  }

  static Room room(String name) {
    for (final Room r : client.getAvailableRooms()) {
      if (r.getName().equals(name)) return r;
    }
    return null;
  }

  static void await(java.util.Map<String, Object> a) throws Exception {
    final long timeout = Long.parseLong(VRecord.str(a, "timeout", "120000"));
    final String what = VRecord.str(a, "await", "");
    if ("chat".equals(what)) {
      final String text = VRecord.str(a, "text", "");
      until("a chat line containing '" + text + "'", timeout, () -> onEdtValue(() -> {
        for (final String line : chatLines()) {
          if (line.contains(text)) return true;
        }
        return false;
      }));
    }
    else if ("piece".equals(what)) {
      final String hex = VRecord.str(a, "at", "");
      until("piece '" + VRecord.str(a, "piece", "") + "' on " + hex, timeout, () -> onEdtValue(() -> {
        final GamePiece p = VRecord.findPiece(VRecord.str(a, "piece", ""));
        final Map m = p.getMap();
        return m != null && hex.equals(VRecord.g(m, p));
      }));
      VRecord.onEdt("piece",
        () -> System.out.println("  " + VCheck.describe(VRecord.findPiece(VRecord.str(a, "piece", "")))));
    }
    else {
      throw new IllegalArgumentException("unknown await '" + what + "'");
    }
  }

  /** The player window, shown on the virtual screen, as the player sees it (the maps' tiles drawn first, the
   *  engine's notices closed). */
  static void shoot(java.io.File file) throws Exception {
    VRecord.onEdt("show the window", () -> {
      final javax.swing.JFrame w = VRecord.gm.getPlayerWindow();
      w.setBounds(0, 0, 1600, 1000);
      w.setVisible(true);
    });
    Thread.sleep(3000);
    VRecord.onEdt("dismiss dialogs", () -> {
      // the engine's notices (a module made for a later VASSAL than this engine, said again by the owner's game)
      for (final java.awt.Window w : java.awt.Window.getWindows()) {
        if (w.isShowing() && w instanceof java.awt.Dialog) {
          System.out.println("  dismissed: " + ((java.awt.Dialog) w).getTitle());
          w.dispose();
        }
      }
    });
    Thread.sleep(2000);
    final java.awt.Rectangle[] r = new java.awt.Rectangle[1];
    VRecord.onEdt("window bounds", () -> r[0] = VRecord.gm.getPlayerWindow().getBounds());
    javax.imageio.ImageIO.write(new java.awt.Robot().createScreenCapture(r[0]), "png", file);
    System.out.println("shot: " + file + " " + r[0].width + "x" + r[0].height);
  }

  interface Check { boolean get() throws Exception; }

  static boolean onEdtValue(Check c) throws Exception {
    final boolean[] r = new boolean[1];
    VRecord.onEdt("check", () -> r[0] = c.get());
    return r[0];
  }

  static void until(String what, long timeoutMs, Check c) throws Exception {
    final long end = System.currentTimeMillis() + timeoutMs;
    while (!c.get()) {
      if (System.currentTimeMillis() > end) {
        VCheck.fail("waited " + timeoutMs / 1000 + " s for " + what);
        VRecord.stopIfProblems();
      }
      Thread.sleep(100);
    }
    System.out.println("  seen: " + what);
  }

  /** The chat's lines as the player reads them (the conversation pane's text). */
  static List<String> chatLines() throws Exception {
    final Field f = Chatter.class.getDeclaredField("doc");
    f.setAccessible(true);
    final Document d = (Document) f.get(VRecord.gm.getChatter());
    final List<String> lines = new ArrayList<>();
    for (final String line : d.getText(0, d.getLength()).split("\n")) {
      if (!line.isBlank()) lines.add(line.strip());
    }
    return lines;
  }
}
