import java.awt.Component;
import java.awt.Container;
import java.awt.Rectangle;
import java.awt.Robot;
import java.awt.Window;
import java.awt.image.BufferedImage;
import java.io.File;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import javax.imageio.ImageIO;
import javax.swing.AbstractButton;
import javax.swing.JComponent;
import javax.swing.JFrame;
import javax.swing.JMenu;
import javax.swing.JMenuBar;
import javax.swing.JMenuItem;
import javax.swing.JPopupMenu;
import javax.swing.MenuElement;
import javax.swing.SwingUtilities;

import VASSAL.build.GameModule;
import VASSAL.build.module.ChartWindow;
import VASSAL.build.module.GameState;
import VASSAL.build.module.Map;
import VASSAL.build.module.PieceWindow;
import VASSAL.build.module.map.MenuDisplayer;
import VASSAL.build.module.turn.TurnTracker;
import VASSAL.counters.GamePiece;

/**
 * What a player sees, from the REAL engine (modulebuilder's own probe, run with the vassal-check tools'
 * class path and its VCheck helpers): the player window's toolbar, menus, the maps' zoom and visible part,
 * the palette, a piece's right-click menu, the turn tracker stepped forward, and screenshots.
 *
 * Usage: VProbe MODULE.vmod SETUP.vsav OUTDIR [menu=PIECE_NAME]... [next=N] [save=FILE.vsav] [replay] [chat=H]
 *   [shot=NAME]
 * Prints lines "toolbar: ...", "menu: ...", "map: ...", "palette: ...", "pieceMenu: ...", "turn: ...",
 * "chart: ...", "shot: FILE" and ends with VPROBE OK (or PROBLEM lines and VPROBE FAILED).
 */
public class VProbe {
  static GameModule gm;

  public static void main(String[] args) throws Exception {
    final String vmod = args[0];
    final File setup = new File(args[1]).getAbsoluteFile();
    final File outDir = new File(args[2]);
    outDir.mkdirs();
    VCheck.initEngine();
    SwingUtilities.invokeAndWait(() -> {
      try {
        gm = VCheck.openModule(vmod);
        final JFrame w = gm.getPlayerWindow();
        w.setBounds(0, 0, 1600, 1000);
        w.setVisible(true);
        final GameState gs = gm.getGameState();
        gs.loadGameInForeground(setup);
        System.out.println("loaded " + setup.getName() + " gameStarted=" + gs.isGameStarted());
      }
      catch (Exception e) {
        e.printStackTrace(System.out);
        VCheck.fail("open: " + e);
      }
    });
    Thread.sleep(2500);
    SwingUtilities.invokeAndWait(() -> {
      try {
        report();
        for (int i = 3; i < args.length; i++) {
          final String a = args[i];
          if (a.startsWith("menu=")) pieceMenu(a.substring(5));
          else if (a.startsWith("next=")) nextTurns(Integer.parseInt(a.substring(5)));
          else if (a.startsWith("save=")) save(a.substring(5));
          else if (a.startsWith("view=")) view(a.substring(5));
          else if (a.equals("dismiss")) dismissDialogs();
          else if (a.equals("replay")) replay();
          else if (a.startsWith("chat=")) chatHeight(Integer.parseInt(a.substring(5)));
        }
      }
      catch (Exception e) {
        e.printStackTrace(System.out);
        VCheck.fail("probe: " + e);
      }
    });
    for (int i = 3; i < args.length; i++) {
      if (args[i].startsWith("wait=")) {
        Thread.sleep((long) (1000 * Double.parseDouble(args[i].substring(5))));   // map tiles are drawn lazily
      }
      else if (args[i].startsWith("shot=")) {
        final String name = args[i].substring(5);
        Thread.sleep(1500);
        shoot(gm.getPlayerWindow(), new File(outDir, name + ".png"));
      }
      else if (args[i].startsWith("button=")) {
        final String text = args[i].substring(7);
        SwingUtilities.invokeAndWait(() -> {
          for (final Component b : gm.getToolBar().getComponents()) {
            if (b instanceof AbstractButton && text.equals(((AbstractButton) b).getText())) {
              ((AbstractButton) b).doClick();
              return;
            }
          }
          VCheck.fail("no toolbar button " + text);
        });
      }
      else if (args[i].startsWith("window=")) {
        // window=TITLE_PART:NAME -- shoot the visible window whose title contains TITLE_PART
        final String[] f = args[i].substring(7).split(":", 2);
        Thread.sleep(1500);
        Window found = null;
        for (final Window w : Window.getWindows()) {
          final String t = w instanceof java.awt.Dialog ? ((java.awt.Dialog) w).getTitle()
            : w instanceof java.awt.Frame ? ((java.awt.Frame) w).getTitle() : "";
          if (w.isShowing() && t != null && t.contains(f[0])) found = w;
        }
        if (found == null) VCheck.fail("no window titled " + f[0]);
        else shoot(found, new File(outDir, f[1] + ".png"));
      }
      else if (args[i].startsWith("charts=")) {
        final String name = args[i].substring(7);
        final Window[] cw = new Window[1];
        SwingUtilities.invokeAndWait(() -> cw[0] = openCharts());
        Thread.sleep(1500);
        if (cw[0] != null) shoot(cw[0], new File(outDir, name + ".png"));
      }
    }
    VCheck.finish("VPROBE");
  }

  /** replay: a .vlog loaded as the set-up, stepped to its end with the engine's own Step forward action (its
   *  chat lines appear as they do for the player who opens an opponent's log). */
  static void replay() throws Exception {
    final VASSAL.build.module.BasicLogger logger = (VASSAL.build.module.BasicLogger) gm.getLogger();
    final java.lang.reflect.Field f = VASSAL.build.module.BasicLogger.class.getDeclaredField("stepAction");
    f.setAccessible(true);
    final javax.swing.Action step = (javax.swing.Action) f.get(logger);
    int n = 0;
    while (logger.hasMoreCommands()) {
      step.actionPerformed(null);
      n++;
    }
    System.out.println("replayed: " + n + " steps");
  }

  static void report() throws Exception {
    for (final Component c : gm.getToolBar().getComponents()) {
      if (c instanceof AbstractButton && c.isVisible()) {
        final AbstractButton b = (AbstractButton) c;
        System.out.println("toolbar: " + b.getText() + " | " + b.getToolTipText());
      }
    }
    final JMenuBar bar = gm.getPlayerWindow().getJMenuBar();
    for (int i = 0; bar != null && i < bar.getMenuCount(); i++) {
      final JMenu m = bar.getMenu(i);
      if (m == null) continue;
      final List<String> items = new ArrayList<>();
      for (int j = 0; j < m.getItemCount(); j++) {
        final JMenuItem it = m.getItem(j);
        if (it != null) items.add(it.getText());
      }
      System.out.println("menu: " + m.getText() + " = " + String.join(" ; ", items));
    }
    for (final Map m : gm.getAllDescendantComponentsOf(Map.class)) {
      final JComponent view = m.getView();
      final Rectangle vis = view.getVisibleRect();
      System.out.println("map: " + m.getMapName() + " zoom=" + m.getZoom() + " size=" + m.mapSize().width + "x"
        + m.mapSize().height + " visible=" + vis.width + "x" + vis.height + " showing=" + view.isShowing());
    }
    for (final PieceWindow p : gm.getAllDescendantComponentsOf(PieceWindow.class)) {
      final Component root = p.getComponent();
      System.out.println("palette: " + p.getConfigureName() + " showing=" + root.isShowing() + " size="
        + root.getWidth() + "x" + root.getHeight());
    }
    for (final ChartWindow c : gm.getAllDescendantComponentsOf(ChartWindow.class)) {
      System.out.println("chart: " + c.getConfigureName());
    }
    for (final TurnTracker t : gm.getAllDescendantComponentsOf(TurnTracker.class)) {
      System.out.println("turn: " + t.getConfigureName() + " = " + turnString(t));
    }
    windows();
  }

  static void windows() {
    for (final Window w : Window.getWindows()) {
      if (!w.isShowing()) continue;
      String title = w instanceof java.awt.Dialog ? ((java.awt.Dialog) w).getTitle()
        : w instanceof java.awt.Frame ? ((java.awt.Frame) w).getTitle() : "";
      System.out.println("window: " + title + " | " + w.getClass().getSimpleName() + " " + w.getWidth() + "x" + w.getHeight());
      if (w instanceof java.awt.Dialog) {
        final List<String> texts = new ArrayList<>();
        texts(w, texts);
        System.out.println("dialog: " + title + " = " + String.join(" ", texts).replace('\n', ' '));
      }
    }
  }

  /** chat=H: the panel above the map (the chat beside the palette) made H pixels high, to show more chat. */
  static void chatHeight(int h) {
    for (java.awt.Container c = gm.getChatter().getParent(); c != null; c = c.getParent()) {
      if (c instanceof javax.swing.JSplitPane
          && ((javax.swing.JSplitPane) c).getOrientation() == javax.swing.JSplitPane.VERTICAL_SPLIT) {
        ((javax.swing.JSplitPane) c).setDividerLocation(h);
        System.out.println("chat: " + h + " pixels high");
        return;
      }
    }
    VCheck.fail("the chat is in no vertical split pane");
  }

  /** dismiss: close the dialogs shown at start (after they were reported), for a clear screenshot. */
  static void dismissDialogs() {
    for (final Window w : Window.getWindows()) {
      if (w.isShowing() && w instanceof java.awt.Dialog) {
        System.out.println("dismissed: " + ((java.awt.Dialog) w).getTitle());
        w.dispose();
      }
    }
  }

  static void texts(Container c, List<String> out) {
    for (final Component k : c.getComponents()) {
      if (k instanceof javax.swing.JLabel && ((javax.swing.JLabel) k).getText() != null) out.add(((javax.swing.JLabel) k).getText());
      else if (k instanceof javax.swing.text.JTextComponent) out.add(((javax.swing.text.JTextComponent) k).getText());
      if (k instanceof Container) texts((Container) k, out);
    }
  }

  static String turnString(TurnTracker t) throws Exception {
    final Method m = TurnTracker.class.getDeclaredMethod("getTurnString");
    m.setAccessible(true);
    return String.valueOf(m.invoke(t));
  }

  static void nextTurns(int n) throws Exception {
    for (final TurnTracker t : gm.getAllDescendantComponentsOf(TurnTracker.class)) {
      final Method next = TurnTracker.class.getDeclaredMethod("next");
      next.setAccessible(true);
      final List<String> seen = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        next.invoke(t);
        seen.add(turnString(t));
      }
      System.out.println("turns: " + String.join(" ; ", seen));
    }
  }

  /** save=FILE: the game as it stands, written by the engine's own "Save Game" (GameState.saveGame): a save made
   *  after next=N holds the turn tracker where the engine stepped it. */
  static void save(String path) throws Exception {
    final File f = new File(path).getAbsoluteFile();
    gm.getGameState().saveGame(f);
    System.out.println("saved: " + f.getName() + " bytes=" + f.length());
  }

  /** view=ZOOM,X,Y: the main map at that zoom, centred on map point X,Y (for a close-up screenshot). */
  static void view(String spec) {
    final String[] f = spec.split(",");
    final Map m = gm.getAllDescendantComponentsOf(Map.class).iterator().next();
    m.getZoomer().setZoomFactor(Double.parseDouble(f[0]));
    m.centerAt(new java.awt.Point(Integer.parseInt(f[1]), Integer.parseInt(f[2])));
    System.out.println("view: " + m.getMapName() + " zoom=" + m.getZoom());
  }

  static void pieceMenu(String name) {
    final List<GamePiece> all = new ArrayList<>();
    for (final GamePiece p : gm.getGameState().getAllPieces()) {
      if (p instanceof VASSAL.counters.Stack) {     // a stack answers to its top piece's name: look inside it
        for (final GamePiece q : ((VASSAL.counters.Stack) p).asList()) all.add(q);
      }
      else all.add(p);
    }
    for (final GamePiece p : all) {
      if (!name.equals(p.getName()) && !name.equals(p.getLocalizedName())) continue;
      final JPopupMenu pop = MenuDisplayer.createPopup(p, true);
      final List<String> items = new ArrayList<>();
      for (final MenuElement e : pop.getSubElements()) {
        if (e instanceof JMenuItem) items.add(((JMenuItem) e).getText());
      }
      System.out.println("pieceMenu: " + name + " = " + String.join(" ; ", items));
      return;
    }
    VCheck.fail("no piece named " + name);
  }

  static Window openCharts() {
    for (final ChartWindow c : gm.getAllDescendantComponentsOf(ChartWindow.class)) {
      for (final Component b : gm.getToolBar().getComponents()) {
        if (b instanceof AbstractButton && c.getConfigureName().equals(((AbstractButton) b).getText())) {
          ((AbstractButton) b).doClick();
          final Component root = c.getComponent();
          return SwingUtilities.getWindowAncestor(root);
        }
      }
    }
    VCheck.fail("no Charts button");
    return null;
  }

  static void shoot(Window w, File f) throws Exception {
    final Rectangle r = w.getBounds();
    final BufferedImage img = new Robot().createScreenCapture(r);
    ImageIO.write(img, "png", f);
    System.out.println("shot: " + f + " " + r.width + "x" + r.height);
  }
}
