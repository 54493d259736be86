"""Interface strings in Ukrainian, Russian and English (SPEC L1).

Decisions:
- The language is picked from the browser's preferred languages (the first of
  ``navigator.languages`` whose primary tag is uk, ru or en); Ukrainian is the
  fallback for every other language. The player can switch it in Settings and the
  choice is remembered on this device (P2).
- Terms follow the rules text: "база" (foundation), "колода" (stock), "скид" (waste).
"""

from __future__ import annotations

LANGS = ("uk", "ru", "en")
DEFAULT = "uk"

STRINGS: dict[str, dict[str, str]] = {
    "uk": {
        "title": "Косинка",
        "new": "Нова",
        "restart": "Заново",
        "undo": "Назад",
        "hint": "Підказки",
        "finish": "Завершити",
        "settings": "Меню",
        "deal": "№",
        "time": "Час",
        "moves": "Ходи",
        "score": "Рахунок",
        "loading": "Завантаження…",
        "confirm": "Так",
        "cancel": "Ні",
        "close": "Закрити",
        "abandon": "Покинути поточну гру?",
        "settings_title": "Налаштування",
        "draw": "Брати з колоди",
        "draw1": "по одній",
        "draw3": "по три",
        "redeals": "Перездачі колоди",
        "redeals_any": "без обмежень",
        "score_setting": "Рахунок",
        "score_on": "стандартний",
        "score_off": "вимкнено",
        "language": "Мова",
        "daily": "Роздача дня",
        "share": "Посилання на цю роздачу",
        "copied": "Посилання скопійовано.",
        "copy": "Копіювати",
        "stats": "Статистика",
        "records": "Рекорди",
        "variant_next": "Новий варіант діятиме з наступної роздачі.",
        "win": "Перемога!",
        "record": "Новий рекорд!",
        "no_record": "Рекорд не побито.",
        "assisted": "Завершено розв'язувачем — без рекорду.",
        "best_time": "Найкращий час",
        "fewest_moves": "Найменше ходів",
        "played": "Зіграно",
        "won": "Виграно",
        "win_pct": "Відсоток перемог",
        "streak": "Серія",
        "best_streak": "Найдовша серія",
        "again": "Нова роздача",
        "thinking": "Шукаю шлях до перемоги…",
        "looking": "Шукаю розкладку, яку можна пройти…",
        "gave_up": "Шляху не знайдено в межах ліміту. Спробуйте самі або скасуйте кілька ходів.",
        "bad_save": "Збережені дані не вдалося прочитати — почато нову гру.",
        "bad_data": "Частину збережених даних не вдалося прочитати, їх скинуто.",
        "update": "Вийшла нова версія Косинки: вона запуститься наступного разу. Гру збережено.",
        "no_storage": "Браузер не дозволяє зберігати дані: гру й рекорди не буде збережено.",
        "other_tab": "Гру продовжено з іншої вкладки.",
        "hints_on": "Підказки увімкнено.",
        "hints_off": "Підказки вимкнено.",
        "no_redeal": "Перездач більше немає.",
        "variant_classic1": "Класика, по одній",
        "variant_classic3": "Класика, по три",
        "variant": "Варіант",
        "none": "—",
        "daily_best": "Роздача дня: найкраще",
        # issue 12
        "bad_link_new": "Це посилання не називає роздачі — ось нова.",
        "bad_link_kept": "Це посилання не називає роздачі — гра триває.",
        "finish_ask": "Дозволити розв'язувачу завершити? Ця гра не зарахується.",
        "stat_assisted": "Завершено розв'язувачем",
        "verdict_lost": "Шляху до перемоги немає",
        "verdict_lost_text": "Звідси всі карти на базу не зійдуть. Скасуйте ходи до моменту, де був інший вибір, або почніть нову роздачу.",
        "verdict_unknown": "Шляху не знайдено в межах ліміту",
        "verdict_unknown_text": "Розв'язувач здався, але шлях може існувати. Грайте далі самі, скасуйте кілька ходів або почніть нову роздачу.",
        "play_on": "Грати далі",
        "variant_now": "Новий варіант роздано зараз.",
        "auto_setting": "Карти на базу самі",
        "auto_on": "так",
        "auto_off": "ні",
        "mark_verified": "розв'язна",
        "mark_verified_title": "Розв'язувач пройшов цю роздачу до перемоги.",
        "mark_checking": "перевіряю",
        "mark_checking_title": "Розв'язувач перевіряє цю роздачу.",
        "mark_lost": "без шляху",
        "mark_lost_title": "Шляху до перемоги немає: розв'язувач довів, що цю роздачу виграти неможливо.",
        "mark_unknown": "не перевірено",
        "mark_unknown_title": "Розв'язувач не встиг вирішити, чи можна виграти цю роздачу.",
        # issue 13: keyboard, screen readers, look
        "ranks": "туз|двійка|трійка|четвірка|п'ятірка|шістка|сімка|вісімка|дев'ятка|десятка|валет|дама|король",
        "suits": "пік|чирв|бубон|треф",
        "card_fmt": "{rank} {suit}",
        "cards_n": "{n} карта|{n} карти|{n} карт",
        "pile_stock": "Колода",
        "pile_waste": "Скид",
        "pile_found": "База {suit}",
        "pile_col": "Стовпчик {n}",
        "to_stock": "у колоду",
        "to_waste": "у скид",
        "to_found": "на базу",
        "to_col": "на стовпчик {n}",
        "empty": "порожньо",
        "on": "на",
        "face_down": "{cards} лицем донизу",
        "redeals_left": "перездач лишилося: {n}",
        "selected": "вибрана: {card}",
        "picked": "Піднято: {card}",
        "picked_more": "Піднято: {card} і ще {cards}",
        "put_back": "Покладено назад.",
        "cant_go": "Сюди не можна.",
        "moved": "{card} {dest}.",
        "drew": "З колоди: {card}.",
        "turned_up": "Відкрито: {card}.",
        "redealt": "Колоду перевернуто.",
        "table_label": "Стіл: стрілки — між стосами, Enter — взяти чи покласти, ? — клавіші",
        "keys_title": "Клавіші",
        "keys": ("←↑→↓|перейти між стосами; ↑↓ у стовпчику — вибрати карту\n"
                 "Enter, Пробіл|взяти карти, покласти їх (як дотик)\n"
                 "Esc|покласти взяті карти назад\n"
                 "1–7|до стовпчика 1–7\n"
                 "D|узяти з колоди\n"
                 "U, Backspace, Ctrl+Z|назад\n"
                 "H|підказки\n"
                 "F|завершити\n"
                 "N|нова роздача\n"
                 "?|ця довідка\n"
                 "Tab|між столом і кнопками"),
        "theme": "Тема",
        "theme_auto": "як у системі",
        "theme_light": "світла",
        "theme_dark": "темна",
        "hand_right": "для правші",
        "hand_left": "для лівші (колода праворуч)",
        "hand_label": "Розташування",
        "help": "Клавіші",
    },
    "ru": {
        "title": "Косынка",
        "new": "Новая",
        "restart": "Заново",
        "undo": "Назад",
        "hint": "Подсказки",
        "finish": "Завершить",
        "settings": "Меню",
        "deal": "№",
        "time": "Время",
        "moves": "Ходы",
        "score": "Счёт",
        "loading": "Загрузка…",
        "confirm": "Да",
        "cancel": "Нет",
        "close": "Закрыть",
        "abandon": "Бросить текущую игру?",
        "settings_title": "Настройки",
        "draw": "Брать из колоды",
        "draw1": "по одной",
        "draw3": "по три",
        "redeals": "Пересдачи колоды",
        "redeals_any": "без ограничений",
        "score_setting": "Счёт",
        "score_on": "стандартный",
        "score_off": "выключен",
        "language": "Язык",
        "daily": "Расклад дня",
        "share": "Ссылка на этот расклад",
        "copied": "Ссылка скопирована.",
        "copy": "Копировать",
        "stats": "Статистика",
        "records": "Рекорды",
        "variant_next": "Новый вариант будет со следующего расклада.",
        "win": "Победа!",
        "record": "Новый рекорд!",
        "no_record": "Рекорд не побит.",
        "assisted": "Завершено решателем — без рекорда.",
        "best_time": "Лучшее время",
        "fewest_moves": "Меньше всего ходов",
        "played": "Сыграно",
        "won": "Выиграно",
        "win_pct": "Процент побед",
        "streak": "Серия",
        "best_streak": "Лучшая серия",
        "again": "Новый расклад",
        "thinking": "Ищу путь к победе…",
        "looking": "Ищу расклад, который можно пройти…",
        "gave_up": "Путь не найден в пределах лимита. Попробуйте сами или отмените несколько ходов.",
        "bad_save": "Сохранённые данные не удалось прочитать — начата новая игра.",
        "bad_data": "Часть сохранённых данных не удалось прочитать, они сброшены.",
        "update": "Вышла новая версия Косынки: она запустится в следующий раз. Игра сохранена.",
        "no_storage": "Браузер не разрешает сохранять данные: игра и рекорды не сохранятся.",
        "other_tab": "Игра продолжена из другой вкладки.",
        "hints_on": "Подсказки включены.",
        "hints_off": "Подсказки выключены.",
        "no_redeal": "Пересдач больше нет.",
        "variant_classic1": "Классика, по одной",
        "variant_classic3": "Классика, по три",
        "variant": "Вариант",
        "none": "—",
        "daily_best": "Расклад дня: лучшее",
        # issue 12
        "bad_link_new": "Эта ссылка не называет расклада — вот новый.",
        "bad_link_kept": "Эта ссылка не называет расклада — игра продолжается.",
        "finish_ask": "Дать решателю закончить? Эта игра не засчитается.",
        "stat_assisted": "Завершено решателем",
        "verdict_lost": "Пути к победе нет",
        "verdict_lost_text": "Отсюда все карты в базу не уйдут. Отмените ходы до момента, где был другой выбор, или начните новый расклад.",
        "verdict_unknown": "Путь не найден в пределах лимита",
        "verdict_unknown_text": "Решатель сдался, но путь может быть. Играйте дальше сами, отмените несколько ходов или начните новый расклад.",
        "play_on": "Играть дальше",
        "variant_now": "Новый вариант разложен сейчас.",
        "auto_setting": "Карты в базу сами",
        "auto_on": "да",
        "auto_off": "нет",
        "mark_verified": "решаемый",
        "mark_verified_title": "Решатель прошёл этот расклад до победы.",
        "mark_checking": "проверяю",
        "mark_checking_title": "Решатель проверяет этот расклад.",
        "mark_lost": "нет пути",
        "mark_lost_title": "Пути к победе нет: решатель доказал, что этот расклад не выиграть.",
        "mark_unknown": "не проверен",
        "mark_unknown_title": "Решатель не успел решить, можно ли выиграть этот расклад.",
        # issue 13: keyboard, screen readers, look
        "ranks": "туз|двойка|тройка|четвёрка|пятёрка|шестёрка|семёрка|восьмёрка|девятка|десятка|валет|дама|король",
        "suits": "пик|червей|бубен|треф",
        "card_fmt": "{rank} {suit}",
        "cards_n": "{n} карта|{n} карты|{n} карт",
        "pile_stock": "Колода",
        "pile_waste": "Сброс",
        "pile_found": "База {suit}",
        "pile_col": "Столбец {n}",
        "to_stock": "в колоду",
        "to_waste": "в сброс",
        "to_found": "на базу",
        "to_col": "на столбец {n}",
        "empty": "пусто",
        "on": "на",
        "face_down": "{cards} рубашкой вверх",
        "redeals_left": "пересдач осталось: {n}",
        "selected": "выбрана: {card}",
        "picked": "Взята: {card}",
        "picked_more": "Взята: {card} и ещё {cards}",
        "put_back": "Положено обратно.",
        "cant_go": "Сюда нельзя.",
        "moved": "{card} {dest}.",
        "drew": "Из колоды: {card}.",
        "turned_up": "Открыта карта: {card}.",
        "redealt": "Колода перевёрнута.",
        "table_label": "Стол: стрелки — между стопками, Enter — взять или положить, ? — клавиши",
        "keys_title": "Клавиши",
        "keys": ("←↑→↓|перейти между стопками; ↑↓ в столбце — выбрать карту\n"
                 "Enter, Пробел|взять карты, положить их (как касание)\n"
                 "Esc|положить взятые карты обратно\n"
                 "1–7|к столбцу 1–7\n"
                 "D|взять из колоды\n"
                 "U, Backspace, Ctrl+Z|назад\n"
                 "H|подсказки\n"
                 "F|завершить\n"
                 "N|новый расклад\n"
                 "?|эта справка\n"
                 "Tab|между столом и кнопками"),
        "theme": "Тема",
        "theme_auto": "как в системе",
        "theme_light": "светлая",
        "theme_dark": "тёмная",
        "hand_label": "Расположение",
        "hand_right": "для правши",
        "hand_left": "для левши (колода справа)",
        "help": "Клавиши",
    },
    "en": {
        "title": "Kosynka",
        "new": "New",
        "restart": "Restart",
        "undo": "Undo",
        "hint": "Hints",
        "finish": "Finish",
        "settings": "Menu",
        "deal": "#",
        "time": "Time",
        "moves": "Moves",
        "score": "Score",
        "loading": "Loading…",
        "confirm": "Yes",
        "cancel": "No",
        "close": "Close",
        "abandon": "Abandon the game in progress?",
        "settings_title": "Settings",
        "draw": "Draw from stock",
        "draw1": "one card",
        "draw3": "three cards",
        "redeals": "Redeals",
        "redeals_any": "unlimited",
        "score_setting": "Score",
        "score_on": "standard",
        "score_off": "off",
        "language": "Language",
        "daily": "Deal of the day",
        "share": "Link to this deal",
        "copied": "Link copied.",
        "copy": "Copy",
        "stats": "Statistics",
        "records": "Records",
        "variant_next": "The new variant applies from the next deal.",
        "win": "You won!",
        "record": "New record!",
        "no_record": "No record this time.",
        "assisted": "Finished by the solver — no record.",
        "best_time": "Best time",
        "fewest_moves": "Fewest moves",
        "played": "Played",
        "won": "Won",
        "win_pct": "Win rate",
        "streak": "Streak",
        "best_streak": "Best streak",
        "again": "New deal",
        "thinking": "Looking for a way to win…",
        "looking": "Finding a deal that can be won…",
        "gave_up": "No path found within the search limit. Try yourself or undo a few moves.",
        "bad_save": "Saved data could not be read — a new game was started.",
        "bad_data": "Some saved data could not be read and was reset.",
        "update": "A new version of Kosynka is ready: it starts next time. Your game is saved.",
        "no_storage": "This browser does not allow saving: the game and records will not be kept.",
        "other_tab": "Continued from the game in another tab.",
        "hints_on": "Hints on.",
        "hints_off": "Hints off.",
        "no_redeal": "No redeals left.",
        "variant_classic1": "Classic, draw 1",
        "variant_classic3": "Classic, draw 3",
        "variant": "Variant",
        "none": "—",
        "daily_best": "Deal of the day: best",
        # issue 12
        "bad_link_new": "That link names no deal — here is a new one.",
        "bad_link_kept": "That link names no deal — your game goes on.",
        "finish_ask": "Let the solver finish? This game will not count.",
        "stat_assisted": "Finished by the solver",
        "verdict_lost": "No path to victory",
        "verdict_lost_text": "From here the cards can't all go up. Undo back to a point where you had another choice, or start a new deal.",
        "verdict_unknown": "No path found within the limit",
        "verdict_unknown_text": "The solver gave up, but a path may still exist. Play on yourself, undo a few moves, or start a new deal.",
        "play_on": "Play on",
        "variant_now": "The new variant is dealt now.",
        "auto_setting": "Auto-move to foundations",
        "auto_on": "on",
        "auto_off": "off",
        "mark_verified": "verified",
        "mark_verified_title": "The solver has played this deal through to a win.",
        "mark_checking": "checking",
        "mark_checking_title": "The solver is checking this deal.",
        "mark_lost": "no path",
        "mark_lost_title": "No path to victory: the solver has proven this deal can't be won.",
        "mark_unknown": "not verified",
        "mark_unknown_title": "The solver could not decide within its limit whether this deal can be won.",
        # issue 13: keyboard, screen readers, look
        "ranks": "ace|two|three|four|five|six|seven|eight|nine|ten|jack|queen|king",
        "suits": "spades|hearts|diamonds|clubs",
        "card_fmt": "{rank} of {suit}",
        "cards_n": "{n} card|{n} cards|{n} cards",
        "pile_stock": "Stock",
        "pile_waste": "Waste",
        "pile_found": "Foundation of {suit}",
        "pile_col": "Column {n}",
        "to_stock": "to the stock",
        "to_waste": "to the waste",
        "to_found": "to the foundation",
        "to_col": "to column {n}",
        "empty": "empty",
        "on": "on",
        "face_down": "{cards} face down",
        "redeals_left": "{n} redeal left|{n} redeals left|{n} redeals left",
        "selected": "selected: {card}",
        "picked": "Picked up: {card}",
        "picked_more": "Picked up: {card} and {cards} more",
        "put_back": "Put back.",
        "cant_go": "Can't go there.",
        "moved": "{card} {dest}.",
        "drew": "Drew: {card}.",
        "turned_up": "Turned up: {card}.",
        "redealt": "Stock turned over.",
        "table_label": "Table: arrows move between piles, Enter picks up or puts down, ? lists the keys",
        "keys_title": "Keys",
        "keys": ("←↑→↓|move between piles; ↑↓ in a column choose a card\n"
                 "Enter, Space|pick cards up, put them down (as a tap)\n"
                 "Esc|put the picked cards back\n"
                 "1–7|go to column 1–7\n"
                 "D|draw from the stock\n"
                 "U, Backspace, Ctrl+Z|undo\n"
                 "H|hints\n"
                 "F|finish\n"
                 "N|new deal\n"
                 "?|this help\n"
                 "Tab|between the table and the buttons"),
        "theme": "Theme",
        "theme_auto": "as the system",
        "theme_light": "light",
        "theme_dark": "dark",
        "hand_label": "Layout",
        "hand_right": "right-handed",
        "hand_left": "left-handed (stock at the right)",
        "help": "Keys",
    },
}


def pick_language(preferred: list[str] | tuple[str, ...] | None, saved: str | None = None) -> str:
    """The interface language: the saved choice, else the browser's, else Ukrainian (L1).

    >>> pick_language(["de-DE", "ru-RU", "en"])
    'ru'
    >>> pick_language(["fr"])
    'uk'
    >>> pick_language(["en-US"], saved="uk")
    'uk'
    """
    if saved in LANGS:
        return saved  # type: ignore[return-value]
    for tag in preferred or ():
        primary = str(tag).split("-")[0].split("_")[0].lower()
        if primary in LANGS:
            return primary
        if primary == "be":  # Belarusian readers: Russian is the closer of the three
            return "ru"
    return DEFAULT


def t(lang: str, key: str) -> str:
    """The string ``key`` in ``lang``; English, then the key itself, if missing."""
    table = STRINGS.get(lang) or STRINGS[DEFAULT]
    return table.get(key) or STRINGS["en"].get(key) or key


def variant_name(lang: str, draw: int, redeals: int | None) -> str:
    """Human name of a variant as in SPEC's variants table."""
    if redeals is None:
        return t(lang, "variant_classic1" if draw == 1 else "variant_classic3")
    if draw == 3 and redeals == 2:
        return {"uk": "Три карти, 3 проходи", "ru": "Три карты, 3 прохода", "en": "Turn Three"}.get(lang, "Turn Three")
    names = {
        "uk": f"Обмежена: по {'одній' if draw == 1 else 'три'}, перездач {redeals}",
        "ru": f"Ограниченная: по {'одной' if draw == 1 else 'три'}, пересдач {redeals}",
        "en": f"Limited: draw {draw}, {redeals} redeal{'s' if redeals != 1 else ''}",
    }
    return names.get(lang, names["en"])
