"""A whole turn in a real browser (Chromium from Debian, driven by Selenium) against `judge serve`:
sign on, orders with one bad line refused, the board, press that arrives by mail at an SMTP sink,
the Master processing and the page showing the new phase; the same pages at a phone's width.
What the pages show is checked by their elements, never pixel by pixel. Skipped, with the reason,
where no Chromium or chromedriver is installed (`.ci/run` installs them)."""
from __future__ import annotations

import shutil
import signal
from datetime import UTC, datetime, timedelta

import pytest

from judge.runtime.inbox import MailHandler
from tests.support.transport import LOOPBACK, free_port, judge_serve, wait_for

from .conftest import password_of, start_game

webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed")
By = pytest.importorskip("selenium.webdriver.common.by").By
WebDriverWait = pytest.importorskip("selenium.webdriver.support.wait").WebDriverWait

BROWSER, DRIVER = shutil.which("chromium"), shutil.which("chromedriver")
pytestmark = pytest.mark.skipif(not (BROWSER and DRIVER),
                                reason="no Chromium and chromedriver (apt-get install chromium "
                                       "chromium-driver)")
PHONE = (390, 844)


@pytest.fixture
def served(make_config, relay, notify, tmp_path):
    """`judge serve` with a game in play, its outgoing mail going to the sink `relay`."""
    port = free_port()
    config = make_config(judge={"url": f"http://{LOOPBACK}:{port}/games"}, web={"port": port},
                         smtp_out={"host": LOOPBACK, "port": relay.port})
    start_game(MailHandler(config), at=datetime.now(UTC) - timedelta(minutes=10))  # the judge's clock
    process = judge_serve(tmp_path, notify)
    yield config, f"http://{LOOPBACK}:{port}/games"
    process.send_signal(signal.SIGTERM)
    try:
        process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()


@pytest.fixture
def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = BROWSER
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"):
        options.add_argument(flag)
    driver = webdriver.Chrome(options=options,
                              service=webdriver.ChromeService(executable_path=DRIVER))
    driver.set_page_load_timeout(60)
    driver.implicitly_wait(30)  # a loaded machine: elements are waited for, not assumed
    yield driver
    driver.quit()


def sign_on(driver, base: str, game: str, power: str, password: str) -> None:
    driver.get(f"{base}/signon")
    for name, value in (("game", game), ("power", power), ("password", password)):
        field = driver.find_element(By.NAME, name)
        field.clear()
        field.send_keys(value)
    driver.find_element(By.CSS_SELECTOR, "form button").click()
    arrived(driver, ("in " + game, "answer"))


def arrived(driver, titles: tuple[str, ...]) -> None:
    """Wait for the page a form leads to (its title holds one of `titles`)."""
    WebDriverWait(driver, 60).until(lambda d: any(t in d.title for t in titles))


def post(driver, action: str, **fields: str) -> str:
    """Fill the form posting to `action` and send it; the answer's text."""
    form = driver.find_element(By.CSS_SELECTOR, f"form[action$='/{action}']")
    for name, value in fields.items():
        form.find_element(By.NAME, name).send_keys(value)
    form.find_element(By.TAG_NAME, "button").click()
    arrived(driver, ("answer",))
    return driver.find_element(By.TAG_NAME, "main").text


def fits(driver) -> bool:
    """Nothing wider than the window: no sideways scrolling."""
    return driver.execute_script(
        "return document.documentElement.scrollWidth <= window.innerWidth + 1")


def test_a_turn_played_in_the_browser(served, relay, browser):
    config, base = served
    sign_on(browser, base, "quiet", "FRANCE", password_of(config, "FRANCE"))
    assert "FRANCE in" in browser.find_element(By.TAG_NAME, "h1").text
    assert browser.find_elements(By.CSS_SELECTOR, ".board svg [data-place='PAR']")

    answer = post(browser, "do/orders", orders="A PAR-BUR\nA MAR-XYZ\nF BRE-MAO")
    assert "A MAR-XYZ: no such place 'XYZ'" in answer and "were not stored" in answer

    browser.get(f"{base}/power")
    form = browser.find_element(By.CSS_SELECTOR, "form[action$='/do/press']")
    form.find_element(By.CSS_SELECTOR, "input[value='ENGLAND']").click()
    assert "ERROR" not in post(browser, "do/press", text="Shall we talk?")
    england = (config.paths.games / "quiet" / "status").read_text() \
        .split("POWER ENGLAND\n")[1].split("ADDRESS ")[1].split()[0]
    wait_for(lambda: any(england in r.rcpt_tos and b"Shall we talk?" in r.raw
                         for r in relay.received), timeout=60)

    browser.get(f"{base}/power")
    browser.find_element(By.CSS_SELECTOR, "form[action$='/signoff'] button").click()
    arrived(browser, ("games",))
    sign_on(browser, base, "quiet", "MASTER", "masterpw")
    browser.find_element(By.CSS_SELECTOR, "button[value='PROCESS!']").click()
    arrived(browser, ("answer",))
    browser.get(f"{base}?game=quiet")
    assert "FALL 1901 MOVEMENT" in browser.find_element(By.TAG_NAME, "main").text.upper()
    assert browser.find_elements(By.CSS_SELECTOR, ".board svg")


def test_the_pages_fit_a_phones_width(served, browser):
    config, base = served
    browser.set_window_size(*PHONE)
    browser.get(base)
    assert browser.find_elements(By.CSS_SELECTOR, "a[href$='?game=quiet']") and fits(browser)
    browser.get(f"{base}?game=quiet")
    assert browser.find_elements(By.CSS_SELECTOR, ".board svg") and fits(browser)
    sign_on(browser, base, "quiet", "FRANCE", password_of(config, "FRANCE"))
    assert browser.find_elements(By.CSS_SELECTOR, "textarea[name='orders']") and fits(browser)


def test_the_zone_page_offers_the_browsers_own_zone(served, browser):
    """The one script runs under the page's Content-Security-Policy and picks the browser's zone;
    the deadline is then shown in it."""
    _, base = served
    browser.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": "Asia/Tokyo"})
    browser.get(f"{base}/zone?game=quiet")
    WebDriverWait(browser, 60).until(
        lambda d: d.find_element(By.ID, "browser-zone").is_displayed())
    assert "Asia/Tokyo" in browser.find_element(By.ID, "browser-zone").text
    assert browser.find_element(By.ID, "zone").get_attribute("value") == "Asia/Tokyo"
    browser.find_element(By.CSS_SELECTOR, "form button").click()
    arrived(browser, ("quiet",))
    assert "Asia/Tokyo" in browser.find_element(By.TAG_NAME, "main").text
