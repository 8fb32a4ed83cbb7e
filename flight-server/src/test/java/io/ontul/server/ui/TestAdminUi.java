package io.ontul.server.ui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.File;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

import io.ontul.catalog.kafka.testing.EmbeddedKafka;
import io.ontul.engine.api.EngineConfig;
import io.ontul.server.OntulServer;

/**
 * The Admin UI in a real browser: Selenium drives headless Chromium (Debian packages {@code
 * chromium} and {@code chromium-driver}, which {@code .ci/run} installs) against a server on a
 * free port, with a real Kafka broker behind a streaming job. Logs in, runs a query on the SQL
 * page and compares its rows with JDBC's, watches a job's lag chart grow, stops and starts the
 * job, and cancels a running query. Screenshots of the overview and the job page go to
 * {@code target/screenshots} (the README's are copies of them).
 */
class TestAdminUi
{
    private static final String PASSWORD = "ui-admin-password";
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");

    @TempDir
    static Path dataDirectory;

    private static EmbeddedKafka kafka;
    private static OntulServer server;
    private static WebDriver browser;
    private static String base;

    @BeforeAll
    static void start()
            throws Exception
    {
        assertThat(Files.isExecutable(CHROMEDRIVER) && Files.isExecutable(CHROMIUM))
                .as("chromium and chromedriver (Debian packages chromium, chromium-driver; bash .ci/run installs them)")
                .isTrue();
        kafka = EmbeddedKafka.start();
        server = OntulServer.start(EngineConfig.embeddedDefaults(), dataDirectory, Optional.of(0), Optional.of(PASSWORD), new PrintStream(OutputStream.nullOutputStream()));
        base = "http://127.0.0.1:" + server.httpPort();
        // Debian's browser and driver, never a download (Selenium Manager is not asked)
        ChromeOptions options = new ChromeOptions()
                .setBinary(CHROMIUM.toFile())
                .addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1400,1000");
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile()).usingAnyFreePort().build();
        browser = new ChromeDriver(service, options);
        browser.manage().timeouts().implicitlyWait(Duration.ZERO);
    }

    @AfterAll
    static void stop()
    {
        if (browser != null) {
            browser.quit();
        }
        if (server != null) {
            server.close();
        }
        if (kafka != null) {
            kafka.close();
        }
    }

    private static Connection jdbc()
            throws SQLException
    {
        return DriverManager.getConnection("jdbc:arrow-flight-sql://127.0.0.1:" + server.port() + "/?useEncryption=false&user=admin&password=" + PASSWORD);
    }

    private static WebDriverWait waiting()
    {
        return new WebDriverWait(browser, Duration.ofSeconds(60));
    }

    private static void logIn()
    {
        browser.get(base + "/");
        WebElement user = waiting().until(ExpectedConditions.visibilityOfElementLocated(By.id("login-user")));
        user.clear();
        user.sendKeys("admin");
        browser.findElement(By.id("login-password")).sendKeys("not-the-password");
        browser.findElement(By.id("login-submit")).click();
        waiting().until(ExpectedConditions.textToBe(By.id("login-error"), "Wrong user name or password"));
        browser.findElement(By.id("login-password")).clear();
        browser.findElement(By.id("login-password")).sendKeys(PASSWORD);
        browser.findElement(By.id("login-submit")).click();
        waiting().until(ExpectedConditions.visibilityOfElementLocated(By.id("overview-uptime")));
        assertThat(browser.findElement(By.id("who")).getText()).isEqualTo("admin (admin)");
    }

    @Test
    void logInRunAQueryWatchAJobAndCancelAQuery()
            throws Exception
    {
        logIn();

        // the SQL page shows the rows JDBC gets
        browser.get(base + "/#/sql");
        WebElement editor = waiting().until(ExpectedConditions.visibilityOfElementLocated(By.id("sql-editor")));
        editor.clear();
        editor.sendKeys("SELECT n_nationkey, n_name, n_regionkey FROM tpch.tiny.nation ORDER BY n_nationkey");
        browser.findElement(By.id("sql-run")).click();
        waiting().until(ExpectedConditions.numberOfElementsToBe(By.cssSelector("#sql-result tbody tr"), 25));
        List<String> shown = new ArrayList<>();
        for (WebElement row : browser.findElements(By.cssSelector("#sql-result tbody tr"))) {
            shown.add(String.join("|", row.findElements(By.tagName("td")).stream().map(WebElement::getText).toList()));
        }
        List<String> expected = new ArrayList<>();
        try (Connection connection = jdbc(); Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT n_nationkey, n_name, n_regionkey FROM tpch.tiny.nation ORDER BY n_nationkey")) {
            while (rows.next()) {
                expected.add(rows.getLong(1) + "|" + rows.getString(2) + "|" + rows.getLong(3));
            }
        }
        assertThat(shown).isEqualTo(expected);
        assertThat(browser.findElements(By.cssSelector("#sql-result th")).stream().map(WebElement::getText).toList()).containsExactly("n_nationkey", "n_name", "n_regionkey");
        // an error shows the server's message
        editor.clear();
        editor.sendKeys("SELECT * FROM tpch.tiny.no_such_table");
        browser.findElement(By.id("sql-run")).click();
        waiting().until(ExpectedConditions.textMatches(By.id("sql-error"), java.util.regex.Pattern.compile(".*no_such_table.*")));

        watchStopAndStartAJob();
        browser.get(base + "/#/overview");
        waiting().until(ExpectedConditions.textToBe(By.id("overview-jobs"), "1 running"));
        screenshot("overview");
        cancelARunningQuery();
    }

    private void watchStopAndStartAJob()
            throws Exception
    {
        kafka.createTopic("clicks", 2);
        produce(0, 500);
        try (Connection connection = jdbc(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE CATALOG kafka USING kafka WITH (\"kafka.bootstrap-servers\" = '" + kafka.bootstrapServers() + "')");
            statement.execute("CREATE CATALOG iceberg USING iceberg");
            statement.execute("CREATE TABLE kafka.\"default\".clicks (id BIGINT, amount BIGINT) WITH ('topic' = 'clicks', 'format' = 'json')");
            statement.execute("CREATE SCHEMA iceberg.lake");
            statement.execute("CREATE TABLE iceberg.lake.clicks (id BIGINT, amount BIGINT)");
            statement.execute("CREATE STREAMING JOB ui_job WITH ('checkpoint.interval' = '200ms') AS INSERT INTO iceberg.lake.clicks SELECT * FROM kafka.\"default\".clicks");

            browser.get(base + "/#/jobs");
            waiting().until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("tr[data-job='ui_job'][data-state='RUNNING']")));
            browser.findElement(By.cssSelector("tr[data-job='ui_job'] a")).click();
            waiting().until(ExpectedConditions.textToBe(By.cssSelector("#job-state"), "RUNNING"));
            // the lag chart gains a point every refresh while records keep coming
            WebElement chart = browser.findElement(By.id("lag-chart"));
            int before = Integer.parseInt(chart.getAttribute("data-points"));
            for (int round = 1; round <= 3; round++) {
                produce(round * 500, 500);
                int points = before + round;
                waiting().until(driver -> Integer.parseInt(driver.findElement(By.id("lag-chart")).getAttribute("data-points")) >= points);
            }
            assertThat(browser.findElements(By.cssSelector("#lag-chart canvas"))).isNotEmpty();
            waiting().until(driver -> Integer.parseInt(driver.findElement(By.id("checkpoint-chart")).getAttribute("data-points")) > 0);
            waiting().until(ExpectedConditions.textToBe(By.id("job-lag"), "0"));
            screenshot("job");

            browser.findElement(By.cssSelector(".actions .stop")).click();
            waiting().until(ExpectedConditions.textToBe(By.cssSelector("#job-state"), "STOPPED"));
            assertThat(jobState(statement)).isEqualTo("STOPPED");
            waiting().until(ExpectedConditions.elementToBeClickable(By.cssSelector(".actions .start"))).click();
            waiting().until(ExpectedConditions.textToBe(By.cssSelector("#job-state"), "RUNNING"));
            assertThat(jobState(statement)).isEqualTo("RUNNING");
            // what it wrote is what was produced: 2,000 records, each once
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (count(statement) != 2000 && System.nanoTime() < deadline) {
                Thread.sleep(200);
            }
            assertThat(count(statement)).isEqualTo(2000);
        }
    }

    private void cancelARunningQuery()
            throws Exception
    {
        String marker = "/* ui-cancel */ ";
        try (Connection connection = jdbc(); Statement statement = connection.createStatement()) {
            CompletableFuture<Void> running = CompletableFuture.runAsync(() -> {
                try (ResultSet rows = statement.executeQuery(marker + "SELECT count(*) FROM tpch.sf1.lineitem a JOIN tpch.sf1.orders b ON a.l_orderkey < b.o_orderkey - a.l_partkey")) {
                    rows.next();
                }
                catch (SQLException e) {
                    throw new java.util.concurrent.CompletionException(e);
                }
            });
            browser.get(base + "/#/queries");
            By row = By.xpath("//tr[@data-state='RUNNING'][td[contains(., 'ui-cancel')]]");
            waiting().until(ExpectedConditions.presenceOfElementLocated(row));
            String id = browser.findElement(row).getAttribute("data-query-id");
            browser.findElement(row).findElement(By.cssSelector("button.cancel")).click();
            assertThatThrownBy(() -> running.get(60, TimeUnit.SECONDS)).hasStackTraceContaining("Query " + id + " was killed by admin");
            waiting().until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("tr[data-query-id='" + id + "'][data-state='CANCELLED']")));
        }
    }

    private static String jobState(Statement statement)
            throws SQLException
    {
        try (ResultSet rows = statement.executeQuery("SHOW STREAMING JOBS")) {
            while (rows.next()) {
                if (rows.getString("name").equals("ui_job")) {
                    return rows.getString("state");
                }
            }
        }
        return null;
    }

    private static long count(Statement statement)
            throws SQLException
    {
        try (ResultSet rows = statement.executeQuery("SELECT count(DISTINCT id) FROM iceberg.lake.clicks")) {
            rows.next();
            return rows.getLong(1);
        }
    }

    private static void produce(int from, int count)
    {
        List<ProducerRecord<String, String>> records = new ArrayList<>();
        for (int i = from; i < from + count; i++) {
            records.add(new ProducerRecord<>("clicks", i % 2, null, "{\"id\": %d, \"amount\": %d}".formatted(i, i % 97)));
        }
        kafka.produce(records);
    }

    private static void screenshot(String name)
            throws Exception
    {
        Path folder = Path.of("target", "screenshots");
        Files.createDirectories(folder);
        File shot = ((TakesScreenshot) browser).getScreenshotAs(OutputType.FILE);
        Files.copy(shot.toPath(), folder.resolve("ui-" + name + ".png"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }
}
