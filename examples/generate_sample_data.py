#!/usr/bin/env python3
"""Generates realistic sample contacts (names with diacritics from a dozen languages, phone numbers in each
country's format, emails, postal addresses, birthdays, organizations, relations, social profiles, groups) and
sends them to Carnet in batches of save mutations, or writes them to a vCard file.

Usage:
    # to a server (each batch is one atomic save; the groups are added by the first one)
    python3 examples/generate_sample_data.py --url https://127.0.0.1:8443/graphql --ca ca.pem --token TOKEN \
        [-n 1000] [--batch-size 100] [--groups 8] [--author sample-data] [--seed 1] [--id-prefix sample-x]

    # to a file instead (vCard 3.0 by default; groups become CATEGORIES, ids become UIDs)
    python3 examples/generate_sample_data.py -n 1000 --vcf sample.vcf [--vcf-version 4.0]

    # look at what would be sent
    python3 examples/generate_sample_data.py -n 3 --dry-run

    --url, --token, --ca default to CARNET_URL, CARNET_TOKEN, CARNET_CA. The same --seed gives the same
    contacts; identifiers get a fresh --id-prefix per run (identifiers are never reused, even after a delete).
    Domains are under .example and phone numbers are made up.

Needs gql 4 (pip install -r tests/clients/requirements.txt) only to send; --vcf and --dry-run use the
standard library.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import secrets
import sys
import time
import unicodedata
from typing import Any, Callable

SAVE = """
mutation SampleDataSave($request: SaveRequestInput!) {
  save(request: $request) {
    revision
    historyToken
    deletedContactIds
  }
}
"""

Digits = Callable[[random.Random], str]


def digits(rng: random.Random, count: int) -> str:
    return "".join(rng.choice("0123456789") for _ in range(count))


def grouped(rng: random.Random, *sizes: int) -> str:
    return " ".join(digits(rng, size) for size in sizes)


# Per language: given names (female, male), family names (female form, male form, or one for both), middle names,
# the country, cities (city, postal code, state or region, district), street templates, phone formats and email
# providers.
LOCALES: dict[str, dict[str, Any]] = {
    "fr": {
        "female": ["Élodie", "Anaïs", "Chloé", "Léa", "Zoé", "Maëlle", "Hélène", "Françoise", "Amélie", "Noémie",
                   "Céline", "Bérénice"],
        "male": ["Benoît", "François", "Jérôme", "Loïc", "Théo", "Raphaël", "Gaël", "Étienne", "Clément", "Hervé",
                 "Joël", "Grégoire"],
        "family": ["Lefèvre", "Dupré", "Bézier", "Giraud", "Rousseau", "Mercier", "Lemaître", "Faure", "Gauthier",
                   "Bénard", "Prévost", "Du Bellay", "Château"],
        "country": ("France", "fr"),
        "cities": [("Lyon", "69002", "Auvergne-Rhône-Alpes", "Presqu'île"), ("Paris", "75011", "Île-de-France", ""),
                   ("Nîmes", "30000", "Occitanie", ""), ("Besançon", "25000", "Bourgogne-Franche-Comté", ""),
                   ("Saint-Étienne", "42000", "Auvergne-Rhône-Alpes", "")],
        "streets": ["{n} rue de la République", "{n} avenue Jean-Jaurès", "{n} place de l'Église",
                    "{n} boulevard Saint-Germain", "{n} chemin des Écoliers", "{n} quai Saint-Antoine"],
        "mobile": lambda r: f"+33 6 {grouped(r, 2, 2, 2, 2)}",
        "landline": lambda r: f"0{r.choice('12345')} {grouped(r, 2, 2, 2, 2)}",
        "mail": ["orange.example", "free.example", "laposte.example"],
    },
    "de": {
        "female": ["Käthe", "Jutta", "Lena", "Hannah", "Mia", "Sophie", "Jördis", "Anneliese", "Ute", "Bärbel"],
        "male": ["Jürgen", "Jörg", "Günther", "Lukas", "Maximilian", "Jonas", "Björn", "Uwe", "Matthäus", "Frieder"],
        "family": ["Müller", "Schröder", "Weiß", "Groß", "Köhler", "Bäcker", "Schäfer", "Krüger", "Böhm", "Jäger",
                   "Fuchs", "von Bülow", "Hoffmann"],
        "country": ("Deutschland", "de"),
        "cities": [("Berlin", "10115", "Berlin", "Mitte"), ("München", "80331", "Bayern", "Altstadt"),
                   ("Köln", "50667", "Nordrhein-Westfalen", ""), ("Düsseldorf", "40213", "Nordrhein-Westfalen", ""),
                   ("Nürnberg", "90402", "Bayern", "")],
        "streets": ["Hauptstraße {n}", "Schloßallee {n}", "Müllerstraße {n}", "Königsweg {n}", "Am Bärenzwinger {n}"],
        "mobile": lambda r: f"+49 15{r.choice('1279')} {digits(r, 8)}",
        "landline": lambda r: f"0{r.choice(['30', '89', '221', '211'])} {digits(r, 7)}",
        "mail": ["gmx.example", "web.example", "t-online.example"],
    },
    "es": {
        "female": ["María", "Sofía", "Lucía", "Inés", "Begoña", "Ángela", "Maite", "Lourdes", "Aránzazu", "Nuria"],
        "male": ["José", "Sebastián", "Martín", "Joaquín", "Andrés", "Íñigo", "Óscar", "Rubén", "Ramón", "Adrián"],
        "family": ["García Núñez", "Martínez", "Rodríguez", "Fernández", "Pérez", "Sánchez", "Gómez", "Muñoz",
                   "Ibáñez", "Peña", "Álvarez", "Castañeda"],
        "country": ("España", "es"),
        "cities": [("Madrid", "28013", "Comunidad de Madrid", "Centro"), ("Málaga", "29015", "Andalucía", ""),
                   ("A Coruña", "15001", "Galicia", ""), ("Cádiz", "11001", "Andalucía", ""),
                   ("Logroño", "26001", "La Rioja", "")],
        "streets": ["Calle de Alcalá, {n}", "Avenida de la Constitución, {n}", "Plaza de España, {n}",
                    "Calle Mayor, {n}, 2.º izq."],
        "mobile": lambda r: f"+34 6{digits(r, 2)} {grouped(r, 3, 3)}",
        "landline": lambda r: f"9{digits(r, 2)} {grouped(r, 3, 3)}",
        "mail": ["correo.example", "telefonica.example"],
    },
    "pt": {
        "female": ["Conceição", "Inês", "Mónica", "Leonor", "Beatriz", "Matilde", "Joana", "Fátima"],
        "male": ["João", "Gonçalo", "Tomás", "Simão", "Luís", "Rúben", "Sebastião", "António"],
        "family": ["Gonçalves", "Brandão", "Magalhães", "Araújo", "Simões", "Guimarães", "Falcão", "Antunes",
                   "Conceição"],
        "country": ("Portugal", "pt"),
        "cities": [("Lisboa", "1100-148", "Lisboa", "Baixa"), ("Porto", "4050-262", "Porto", ""),
                   ("Évora", "7000-501", "Évora", ""), ("Braga", "4700-321", "Braga", "")],
        "streets": ["Rua Augusta, {n}", "Avenida da Liberdade, {n}", "Praça do Comércio, {n}", "Rua de Santa Catarina, {n}"],
        "mobile": lambda r: f"+351 9{r.choice('1236')}{digits(r, 1)} {grouped(r, 3, 3)}",
        "landline": lambda r: f"+351 2{digits(r, 2)} {grouped(r, 3, 3)}",
        "mail": ["sapo.example", "iol.example"],
    },
    "pl": {
        "female": ["Małgorzata", "Agnieszka", "Zofia", "Katarzyna", "Joanna", "Bożena", "Jadwiga", "Łucja"],
        "male": ["Łukasz", "Paweł", "Wojciech", "Michał", "Jędrzej", "Bartłomiej", "Grzegorz", "Zbigniew"],
        "family": [("Wiśniewska", "Wiśniewski"), ("Kowalska", "Kowalski"), "Wójcik", ("Kamińska", "Kamiński"),
                   ("Lewandowska", "Lewandowski"), ("Zielińska", "Zieliński"), ("Dąbrowska", "Dąbrowski"),
                   "Woźniak", ("Kozłowska", "Kozłowski")],
        "country": ("Polska", "pl"),
        "cities": [("Kraków", "31-001", "Małopolskie", "Stare Miasto"), ("Łódź", "90-001", "Łódzkie", ""),
                   ("Gdańsk", "80-001", "Pomorskie", ""), ("Wrocław", "50-001", "Dolnośląskie", "")],
        "streets": ["ul. Długa {n}", "ul. Świętokrzyska {n}", "al. Jerozolimskie {n}", "ul. Żeromskiego {n}/{m}"],
        "mobile": lambda r: f"+48 {r.choice('5678')}{digits(r, 2)} {grouped(r, 3, 3)}",
        "landline": lambda r: f"+48 {r.choice(['12', '22', '42', '58'])} {grouped(r, 3, 2, 2)}",
        "mail": ["wp.example", "onet.example", "interia.example"],
    },
    "cs": {
        "female": ["Tereza", "Lucie", "Kateřina", "Zuzana", "Markéta", "Anežka", "Božena", "Věra"],
        "male": ["Jiří", "Tomáš", "Lukáš", "Ondřej", "Vojtěch", "Matěj", "Přemysl", "Radek"],
        "family": [("Dvořáková", "Dvořák"), ("Nováková", "Novák"), ("Černá", "Černý"), ("Procházková", "Procházka"),
                   ("Kučerová", "Kučera"), ("Veselá", "Veselý"), ("Horáčková", "Horáček"), ("Němcová", "Němec")],
        "country": ("Česko", "cz"),
        "cities": [("Praha", "110 00", "Hlavní město Praha", "Praha 1"), ("Brno", "602 00", "Jihomoravský kraj", ""),
                   ("České Budějovice", "370 01", "Jihočeský kraj", ""), ("Plzeň", "301 00", "Plzeňský kraj", "")],
        "streets": ["Václavské náměstí {n}", "Národní {n}", "Husova {n}/{m}", "Dlouhá třída {n}"],
        "mobile": lambda r: f"+420 {r.choice('67')}{digits(r, 2)} {grouped(r, 3, 3)}",
        "landline": lambda r: f"+420 2{digits(r, 2)} {grouped(r, 3, 3)}",
        "mail": ["seznam.example", "centrum.example"],
    },
    "sv": {
        "female": ["Åsa", "Märta", "Linnéa", "Ingrid", "Sofia", "Elsa", "Björg", "Gunnel"],
        "male": ["Björn", "Åke", "Göran", "Måns", "Östen", "Lars", "Anders", "Jöns"],
        "family": ["Åberg", "Öberg", "Lindström", "Bergström", "Sjögren", "Söderberg", "Ekström", "Nyström",
                   "Håkansson", "Jönsson"],
        "country": ("Sverige", "se"),
        "cities": [("Göteborg", "411 01", "Västra Götaland", ""), ("Malmö", "211 20", "Skåne", ""),
                   ("Stockholm", "111 52", "Stockholm", "Norrmalm"), ("Västerås", "722 11", "Västmanland", "")],
        "streets": ["Drottninggatan {n}", "Storgatan {n}", "Södra Förstadsgatan {n}", "Kungsgatan {n} lgh 1{m}02"],
        "mobile": lambda r: f"+46 7{r.choice('0236')} {grouped(r, 3, 2, 2)}",
        "landline": lambda r: f"0{r.choice(['8', '31', '40'])}-{grouped(r, 3, 2, 2)}",
        "mail": ["telia.example", "bredband.example"],
    },
    "tr": {
        "female": ["Gülşen", "Ayşe", "Büşra", "Özlem", "Şebnem", "Elif", "Çiğdem", "Gökçe"],
        "male": ["Çağlar", "Oğuz", "Gökhan", "Barış", "Şükrü", "Mert", "İlker", "Ümit"],
        "family": ["Yılmaz", "Öztürk", "Çelik", "Şahin", "Doğan", "Aydın", "Güneş", "Kılıç", "Yıldız", "Aksoy"],
        "country": ("Türkiye", "tr"),
        "cities": [("İstanbul", "34430", "İstanbul", "Beyoğlu"), ("Ankara", "06420", "Ankara", "Çankaya"),
                   ("İzmir", "35210", "İzmir", "Konak"), ("Eskişehir", "26010", "Eskişehir", "")],
        "streets": ["İstiklal Caddesi No: {n}", "Atatürk Bulvarı No: {n}", "Gazi Mustafa Kemal Bulvarı No: {n} D: {m}"],
        "mobile": lambda r: f"+90 5{digits(r, 2)} {grouped(r, 3, 2, 2)}",
        "landline": lambda r: f"+90 2{digits(r, 2)} {grouped(r, 3, 2, 2)}",
        "mail": ["ttmail.example", "yandex.example"],
    },
    "vi": {
        "female": ["Thảo", "Hương", "Phương", "Ngọc", "Lan", "Hằng", "Trâm", "Diệp"],
        "male": ["Minh", "Dũng", "Đức", "Tuấn", "Hải", "Quý", "Hoàng", "Khôi"],
        "family": ["Nguyễn", "Trần", "Lê", "Phạm", "Hoàng", "Phan", "Vũ", "Đặng", "Bùi", "Đỗ"],
        "middle": {"female": ["Thị", "Ngọc", "Thu"], "male": ["Văn", "Đức", "Quang"]},
        "country": ("Việt Nam", "vn"),
        "cities": [("Hà Nội", "100000", "", "Hoàn Kiếm"), ("Thành phố Hồ Chí Minh", "700000", "", "Quận 1"),
                   ("Đà Nẵng", "550000", "", "Hải Châu"), ("Huế", "530000", "Thừa Thiên Huế", "")],
        "streets": ["{n} Phố Huế", "{n} Đường Lê Lợi", "{n} Đường Nguyễn Huệ", "{n} Hàng Bạc"],
        "mobile": lambda r: f"+84 9{digits(r, 1)} {grouped(r, 3, 2, 2)}",
        "landline": lambda r: f"+84 2{digits(r, 1)} {grouped(r, 4, 4)}",
        "mail": ["vnn.example", "fpt.example"],
    },
    "it": {
        "female": ["Giulia", "Chiara", "Francesca", "Lucrezia", "Benedetta", "Ilaria", "Gioia", "Noemi"],
        "male": ["Niccolò", "Andrea", "Luca", "Lorenzo", "Nicolò", "Mattia", "Tommaso", "Gianluca"],
        "family": ["Rossi", "Russo", "Esposito", "Bianchi", "Romano", "Colombo", "De Luca", "Mancini", "D'Angelo",
                   "Fabbri", "Sant'Elia"],
        "country": ("Italia", "it"),
        "cities": [("Roma", "00186", "Lazio", "Centro Storico"), ("Milano", "20121", "Lombardia", "Brera"),
                   ("Napoli", "80134", "Campania", ""), ("Torino", "10121", "Piemonte", "")],
        "streets": ["Via del Corso, {n}", "Piazza Navona, {n}", "Corso Vittorio Emanuele II, {n}", "Via dell'Orso, {n}"],
        "mobile": lambda r: f"+39 3{digits(r, 2)} {grouped(r, 3, 4)}",
        "landline": lambda r: f"+39 0{r.choice(['6', '2', '81', '11'])} {digits(r, 7)}",
        "mail": ["libero.example", "tiscali.example"],
    },
    "is": {
        "female": ["Guðrún", "Sigríður", "Þóra", "Björk", "Hrafnhildur", "Ásdís"],
        "male": ["Þórður", "Guðmundur", "Sigurður", "Jón", "Ólafur", "Ævar"],
        "family": [("Jónsdóttir", "Jónsson"), ("Sigurðardóttir", "Sigurðsson"), ("Guðmundsdóttir", "Guðmundsson"),
                   ("Þórsdóttir", "Þórsson"), ("Ólafsdóttir", "Ólafsson")],
        "country": ("Ísland", "is"),
        "cities": [("Reykjavík", "101", "", "Miðborg"), ("Akureyri", "600", "", ""), ("Kópavogur", "200", "", "")],
        "streets": ["Laugavegur {n}", "Skólavörðustígur {n}", "Þingholtsstræti {n}"],
        "mobile": lambda r: f"+354 {r.choice('678')}{digits(r, 2)} {digits(r, 4)}",
        "landline": lambda r: f"+354 5{digits(r, 2)} {digits(r, 4)}",
        "mail": ["simnet.example", "vodafone.example"],
    },
    "en": {
        "female": ["Zoë", "Renée", "Chloë", "Margaret", "Siobhán", "Aoife", "Naïma", "Olivia"],
        "male": ["Seán", "Liam", "José", "Noël", "Oliver", "Ciarán", "André", "Thomas"],
        "family": ["O'Brien", "Smith-Jones", "Brontë", "McAllister", "Ó Súilleabháin", "Nguyen", "Walker", "Núñez"],
        "country": ("United States", "us"),
        "cities": [("Springfield", "62701", "IL", ""), ("Portland", "97205", "OR", ""), ("Austin", "78701", "TX", ""),
                   ("Brooklyn", "11201", "NY", "Brooklyn Heights")],
        "streets": ["{n} Main Street", "{n} Elm Avenue, Apt {m}", "{n} Café Lane", "{n} Piñon Drive"],
        "mobile": lambda r: f"(555) 555-01{digits(r, 2)}",
        "landline": lambda r: f"+1 555-01{digits(r, 2)}",
        "mail": ["mail.example", "inbox.example"],
    },
}

ORGANIZATIONS = [
    "Éditions du Rhône", "Brasserie Zoë", "Müller & Söhne GmbH", "Schäfer Logistik AG", "Telecomunicaciones Ibáñez",
    "Conservas Magalhães", "Dvořák strojírny s.r.o.", "Ångström Labs AB", "Çınar Tekstil A.Ş.", "Phở Việt",
    "Fabbrica D'Angelo & Figli", "Ísafold ehf.", "Wiśniewski Software sp. z o.o.", "Crème de la Crème SARL",
    "Nørre Design ApS", "São Jorge Seguros",
]
JOB_TITLES = [
    "Ingénieure logiciel", "Directeur commercial", "Geschäftsführer", "Projektleiterin", "Jefa de ventas",
    "Contable", "Engenheira civil", "Kierownik projektu", "Účetní", "Utvecklare", "Muhasebeci", "Kỹ sư phần mềm",
    "Avvocato", "Hönnuður", "Chef de cuisine", "Responsable RH",
]
DEPARTMENTS = ["Ventes", "Vertrieb", "Recursos Humanos", "Informatique", "Marketing", "Finanse", "Výroba",
               "Utveckling", "Ar-Ge", "Kế toán"]
GROUPS = ["Famille", "Amis", "Collègues", "Club de lecture", "Voisins", "Fußballverein", "Bénévoles",
          "Clientes de Málaga", "Współpracownicy", "Kusiner i Åre", "Đồng nghiệp", "Chorale Sainte-Cécile"]
NOTES = [
    "Rencontré·e au salon du livre.\nPréfère être appelé·e le matin.",
    "Allergie aux noix — penser au gâteau d'anniversaire.",
    "Hat den Schlüssel für die Gartenlaube.",
    "Prefiere WhatsApp.\tNo llamar después de las 21 h.",
    "Ανταλλαγή βιβλίων κάθε μήνα.",
    "Đã gửi thiệp chúc Tết.",
]
RELATIONS = ["spouse", "partner", "mother", "father", "child", "sister", "brother", "friend", "assistant",
             "manager"]


def ascii_fold(text: str) -> str:
    special = {"ß": "ss", "Æ": "Ae", "æ": "ae", "Ø": "O", "ø": "o", "Ł": "L", "ł": "l", "Đ": "D", "đ": "d",
               "Þ": "Th", "þ": "th", "ð": "d", "ı": "i", "Œ": "Oe", "œ": "oe"}
    text = "".join(special.get(ch, ch) for ch in text)
    return "".join(ch for ch in unicodedata.normalize("NFKD", text) if not unicodedata.combining(ch)).encode(
        "ascii", "ignore").decode()


def slug(*parts: str) -> str:
    words = " ".join(ascii_fold(p) for p in parts).lower()
    return ".".join("".join(ch for ch in word if ch.isalnum()) for word in words.split() if word.strip("'-"))


class Generator:
    def __init__(self, seed: int, id_prefix: str, group_count: int):
        self.rng = random.Random(seed)
        self.id_prefix = id_prefix
        self.groups = [(f"{id_prefix}-g{index:02d}", name) for index, name in enumerate(GROUPS[:group_count])]
        self.emails: set[str] = set()

    def family_name(self, locale: dict[str, Any], female: bool) -> str:
        name = self.rng.choice(locale["family"])
        return (name[0] if female else name[1]) if isinstance(name, tuple) else name

    def date(self, start_year: int, end_year: int, with_year: bool = True) -> dict[str, Any]:
        rng = self.rng
        month = rng.randint(1, 12)
        day = rng.randint(1, [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1])
        value: dict[str, Any] = {"month": month, "day": day}
        if with_year:
            value["year"] = rng.randint(start_year, end_year)
        return value

    def email(self, given: str, family: str, domain: str) -> str:
        base = slug(given, family) or "contact"
        address = f"{base}@{domain}"
        number = 1
        while address in self.emails:
            number += 1
            address = f"{base}{number}@{domain}"
        self.emails.add(address)
        return address

    def address(self, locale: dict[str, Any], label: str) -> dict[str, Any]:
        rng = self.rng
        city, postal_code, state, district = rng.choice(locale["cities"])
        street = rng.choice(locale["streets"]).format(n=rng.randint(1, 180), m=rng.randint(1, 40))
        if rng.random() < 0.1:
            street += "\n" + rng.choice(["Bâtiment B", "Hinterhaus", "Escalera 2", "3. patro", "c/o Ångström"])
        country, iso = locale["country"]
        return {"label": label, "value": {"street": street, "subLocality": district, "city": city, "state": state,
                                          "postalCode": postal_code, "country": country, "isoCountryCode": iso}}

    def contact(self, number: int) -> tuple[dict[str, Any], list[str]]:
        """An AddContactInput and the ids of the groups it joins."""
        rng = self.rng
        code = rng.choices(list(LOCALES), weights=[5, 4, 3, 2, 2, 2, 2, 2, 2, 2, 1, 3])[0]
        locale = LOCALES[code]
        contact: dict[str, Any] = {"id": f"{self.id_prefix}-c{number:06d}"}
        country, _ = locale["country"]

        if rng.random() < 0.07:  # an organization
            name = rng.choice(ORGANIZATIONS)
            domain = slug(name).split(".")[0] + ".example"
            contact.update({
                "contactType": "ORGANIZATION", "organizationName": name,
                "phoneNumbers": [{"label": "main", "value": locale["landline"](rng)}],
                "emailAddresses": [{"label": "work", "value": self.email("contact", str(number), domain)}],
                "postalAddresses": [self.address(locale, "work")],
                "urlAddresses": [{"label": "homePage", "value": f"https://www.{domain}/"}],
            })
            return contact, []

        female = rng.random() < 0.5
        given = rng.choice(locale["female" if female else "male"])
        family = self.family_name(locale, female)
        contact.update({"givenName": given, "familyName": family})
        if "middle" in locale and rng.random() < 0.8:
            contact["middleName"] = rng.choice(locale["middle"]["female" if female else "male"])
        elif rng.random() < 0.08:
            contact["middleName"] = rng.choice(locale["female" if female else "male"])
        if rng.random() < 0.05:
            contact["namePrefix"] = rng.choice(["Dr.", "Prof.", "Me", "Ing."])
        if rng.random() < 0.1:
            contact["nickname"] = given[:3] + rng.choice(["o", "ie", "ou", "i"])
        if female and rng.random() < 0.06:
            contact["previousFamilyName"] = self.family_name(locale, True)

        phones = [{"label": "mobile", "value": locale["mobile"](rng)}]
        if rng.random() < 0.35:
            phones.append({"label": "home", "value": locale["landline"](rng)})
        if rng.random() < 0.05:
            phones.append({"label": "Bureau (ligne directe)", "value": locale["landline"](rng)})
        contact["phoneNumbers"] = phones

        emails = [{"label": "home", "value": self.email(given, family, rng.choice(locale["mail"]))}]
        if rng.random() < 0.55:
            organization = rng.choice(ORGANIZATIONS)
            domain = slug(organization).split(".")[0] + ".example"
            contact.update({"organizationName": organization, "jobTitle": rng.choice(JOB_TITLES)})
            if rng.random() < 0.4:
                contact["departmentName"] = rng.choice(DEPARTMENTS)
            emails.append({"label": "work", "value": self.email(given, family, domain)})
            if rng.random() < 0.3:
                phones.append({"label": "work", "value": locale["landline"](rng)})
        contact["emailAddresses"] = emails

        if rng.random() < 0.75:
            contact["postalAddresses"] = [self.address(locale, "home")]
            if rng.random() < 0.15:
                contact["postalAddresses"].append(self.address(locale, "work"))
        if rng.random() < 0.6:
            contact["birthday"] = self.date(1940, 2012, with_year=rng.random() < 0.85)
        if rng.random() < 0.1:
            contact["dates"] = [{"label": "anniversary", "value": self.date(1975, 2024)}]
        if rng.random() < 0.15:
            relation_name = rng.choice(locale["male" if female else "female"]) + " " + family
            contact["contactRelations"] = [{"label": rng.choice(RELATIONS), "value": {"name": relation_name}}]
        if rng.random() < 0.2:
            handle = slug(given, family).replace(".", "-")
            contact["socialProfiles"] = [{"label": "work", "value": {
                "service": "LinkedIn", "username": handle, "urlString": f"https://www.linkedin.com/in/{handle}"}}]
        if rng.random() < 0.05:
            contact["instantMessageAddresses"] = [{"label": "home", "value": {
                "service": rng.choice(["Skype", "Jabber"]), "username": slug(given, family)}}]
        if rng.random() < 0.08:
            contact["urlAddresses"] = [{"label": "homePage", "value": f"https://{slug(family)}.example/"}]
        if rng.random() < 0.08:
            contact["note"] = rng.choice(NOTES)

        groups = [g for g, _ in rng.sample(self.groups, k=min(len(self.groups), rng.choice([0, 0, 1, 1, 1, 2])))]
        return contact, groups


# -- vCard ------------------------------------------------------------------------------------------------------


def escape(value: str) -> str:
    return (value.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,")
            .replace("\r\n", "\\n").replace("\n", "\\n"))


def fold(line: str) -> str:
    """Folds a content line at 75 octets without splitting a UTF-8 character (RFC 6350 3.2)."""
    out, current, size = [], "", 0
    for ch in line:
        width = len(ch.encode("utf-8"))
        if size + width > 75:
            out.append(current)
            current, size = " ", 1
        current += ch
        size += width
    out.append(current)
    return "\r\n".join(out)


VCARD_TYPES = {"mobile": "CELL", "home": "HOME", "work": "WORK", "main": "MAIN", "homePage": "HOME"}


def vcard(contact: dict[str, Any], categories: list[str], version: str) -> str:
    v4 = version == "4.0"
    lines = ["BEGIN:VCARD", f"VERSION:{version}", f"UID:{contact['id']}"]

    items = 0

    def labeled(name: str, label: str | None, value: str, extra: str = "") -> None:
        """A property with a well-known label as TYPE, or a custom one as Apple's itemN.X-ABLabel."""
        nonlocal items
        known = VCARD_TYPES.get(label or "")
        if label and not known:
            items += 1
            lines.append(f"item{items}.{name}{extra}:{value}")
            lines.append(f"item{items}.X-ABLabel:{escape(label)}")
            return
        type_param = f";TYPE={known.lower() if v4 else known}" if known else ""
        lines.append(f"{name}{type_param}{extra}:{value}")

    person = contact.get("contactType") != "ORGANIZATION"
    names = [contact.get(k, "") for k in ("namePrefix", "givenName", "middleName", "familyName")]
    full = " ".join(n for n in names if n) if person else contact.get("organizationName", "")
    lines.append(f"FN:{escape(full)}")
    lines.append("N:" + ";".join(escape(contact.get(k, "")) for k in
                                  ("familyName", "givenName", "middleName", "namePrefix", "nameSuffix")))
    if not person:
        lines.append("KIND:org" if v4 else "X-ABShowAs:COMPANY")
    if contact.get("nickname"):
        lines.append(f"NICKNAME:{escape(contact['nickname'])}")
    if contact.get("organizationName"):
        org = escape(contact["organizationName"])
        if contact.get("departmentName"):
            org += ";" + escape(contact["departmentName"])
        lines.append(f"ORG:{org}")
    if contact.get("jobTitle"):
        lines.append(f"TITLE:{escape(contact['jobTitle'])}")
    for phone in contact.get("phoneNumbers", []):
        labeled("TEL", phone["label"], phone["value"])
    for email in contact.get("emailAddresses", []):
        labeled("EMAIL", email["label"], email["value"], "" if v4 else ";TYPE=INTERNET")
    for address in contact.get("postalAddresses", []):
        value = address["value"]
        parts = ["", "", value["street"], value["city"], value["state"],
                 value["postalCode"], value["country"]]
        labeled("ADR", address["label"], ";".join(escape(p) for p in parts))
    for url in contact.get("urlAddresses", []):
        labeled("URL", url["label"], url["value"])
    birthday = contact.get("birthday")
    if birthday:
        if "year" in birthday:
            lines.append(f"BDAY:{birthday['year']:04d}-{birthday['month']:02d}-{birthday['day']:02d}")
        elif v4:
            lines.append(f"BDAY:--{birthday['month']:02d}{birthday['day']:02d}")
        else:  # Apple's convention for a birthday without a year in vCard 3.0
            lines.append(f"BDAY;X-APPLE-OMIT-YEAR=1604:1604-{birthday['month']:02d}-{birthday['day']:02d}")
    for date in contact.get("dates", []):
        value = date["value"]
        lines.append(f"ANNIVERSARY:{value['year']:04d}{value['month']:02d}{value['day']:02d}" if v4 else
                     f"X-ANNIVERSARY:{value['year']:04d}-{value['month']:02d}-{value['day']:02d}")
    for relation in contact.get("contactRelations", []):
        lines.append(f"RELATED;TYPE={relation['label']};VALUE=text:{escape(relation['value']['name'])}" if v4 else
                     f"X-ABRELATEDNAMES;TYPE={relation['label']}:{escape(relation['value']['name'])}")
    for profile in contact.get("socialProfiles", []):
        value = profile["value"]
        lines.append(f"X-SOCIALPROFILE;TYPE={value['service'].lower()};X-USER={value['username']}:{value['urlString']}")
    for im in contact.get("instantMessageAddresses", []):
        value = im["value"]
        lines.append(f"IMPP;X-SERVICE-TYPE={value['service']}:{'skype' if value['service'] == 'Skype' else 'xmpp'}:"
                     f"{value['username']}")
    if contact.get("note"):
        lines.append(f"NOTE:{escape(contact['note'])}")
    if categories:
        lines.append("CATEGORIES:" + ",".join(escape(c) for c in categories))
    lines.append("END:VCARD")
    return "".join(fold(line) + "\r\n" for line in lines)


# -- main -------------------------------------------------------------------------------------------------------


def batches(generator: Generator, count: int, size: int, author: str | None) -> Any:
    """Yields (SaveRequestInput, contacts in it); the first request adds the groups."""
    number = 0
    first = True
    while number < count:
        operations: list[dict[str, Any]] = []
        if first:
            operations += [{"addGroup": {"id": gid, "name": name}} for gid, name in generator.groups]
        memberships = []
        in_batch = min(size, count - number)
        for _ in range(in_batch):
            number += 1
            contact, groups = generator.contact(number)
            operations.append({"addContact": contact})
            memberships += [{"addMember": {"contactId": contact["id"], "groupId": g}} for g in groups]
        request: dict[str, Any] = {"operations": operations + memberships}
        if author:
            request["transactionAuthor"] = author
        first = False
        yield request, in_batch


def write_vcf(args: argparse.Namespace, generator: Generator) -> int:
    names = dict(generator.groups)
    with open(args.vcf, "w", encoding="utf-8", newline="") as out:
        for number in range(1, args.count + 1):
            contact, groups = generator.contact(number)
            out.write(vcard(contact, [names[g] for g in groups], args.vcf_version))
    print(f"wrote {args.count} contacts (vCard {args.vcf_version}) to {args.vcf}")
    return 0


def send(args: argparse.Namespace, generator: Generator) -> int:
    from gql import Client, GraphQLRequest
    from gql.transport.exceptions import TransportQueryError
    from gql.transport.requests import RequestsHTTPTransport

    transport = RequestsHTTPTransport(url=args.url, headers={"Authorization": f"Bearer {args.token}"},
                                      verify=args.ca, timeout=120, retries=0)
    started = time.monotonic()
    sent = 0
    with Client(transport=transport, execute_timeout=120) as session:
        for index, (request, in_batch) in enumerate(batches(generator, args.count, args.batch_size, args.author), 1):
            try:
                result = session.execute(GraphQLRequest(SAVE, variable_values={"request": request}))
            except TransportQueryError as error:
                print(f"batch {index} failed, nothing of it was written: "
                      f"{json.dumps(error.errors, ensure_ascii=False)}", file=sys.stderr)
                return 1
            sent += in_batch
            elapsed = time.monotonic() - started
            print(f"batch {index}: {len(request['operations'])} operations, {sent}/{args.count} contacts, "
                  f"revision {result['save']['revision']} ({sent / elapsed:.0f} contacts/s)", flush=True)
    print(f"added {sent} contacts and {len(generator.groups)} groups with ids {args.id_prefix}-* "
          f"in {time.monotonic() - started:.1f} s")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description="Generate realistic sample contacts for Carnet.")
    parser.add_argument("-n", "--count", type=int, default=200, help="how many contacts (default %(default)s)")
    parser.add_argument("--batch-size", type=int, default=100, help="contacts per save (default %(default)s)")
    parser.add_argument("--groups", type=int, default=8, help=f"groups to create, 0-{len(GROUPS)} (default 8)")
    parser.add_argument("--seed", type=int, default=1, help="random seed: same seed, same contacts")
    parser.add_argument("--id-prefix", default=None, help="identifier prefix (default: sample-<time>-<random>)")
    parser.add_argument("--author", default=os.environ.get("CARNET_AUTHOR", "sample-data"),
                        help="transactionAuthor of the saves (default sample-data; empty: the token's own)")
    parser.add_argument("--url", default=os.environ.get("CARNET_URL"), help="GraphQL endpoint (CARNET_URL)")
    parser.add_argument("--token", default=os.environ.get("CARNET_TOKEN"), help="write token (CARNET_TOKEN)")
    parser.add_argument("--ca", default=os.environ.get("CARNET_CA"), help="CA certificate PEM (CARNET_CA)")
    parser.add_argument("--vcf", help="write a vCard file instead of sending")
    parser.add_argument("--vcf-version", choices=["3.0", "4.0"], default="3.0", help="vCard version (default 3.0)")
    parser.add_argument("--dry-run", action="store_true", help="print the first save request instead of sending")
    args = parser.parse_args()
    if args.count < 1 or not 1 <= args.batch_size <= 1000 or not 0 <= args.groups <= len(GROUPS):
        parser.error(f"need --count >= 1, --batch-size 1-1000, --groups 0-{len(GROUPS)}")
    args.id_prefix = args.id_prefix or f"sample-{time.strftime('%Y%m%d%H%M%S')}-{secrets.token_hex(2)}"
    generator = Generator(args.seed, args.id_prefix, args.groups)

    if args.vcf:
        return write_vcf(args, generator)
    if args.dry_run:
        request, _ = next(batches(generator, args.count, args.batch_size, args.author))
        print(json.dumps({"query": SAVE, "variables": {"request": request}}, ensure_ascii=False, indent=2))
        return 0
    missing = [name for name in ("url", "token", "ca") if not getattr(args, name)]
    if missing:
        parser.error(f"set {', '.join('CARNET_' + m.upper() for m in missing)} or pass --{' --'.join(missing)} "
                     "(or use --vcf / --dry-run)")
    return send(args, generator)


if __name__ == "__main__":
    sys.exit(main())
