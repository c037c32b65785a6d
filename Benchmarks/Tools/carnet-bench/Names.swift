/// Word lists for the generated data set: given and family names from many languages (with their diacritics),
/// organizations, streets and cities. Order matters: earlier entries are drawn more often.
enum Names {
    static let given: [String] = words(
        """
        Anna José María Thomas Zoë Łukasz Sophie Jean Ana Johan Léa Noah Emma Lucía Mateo Chloé Hugo
        Olivia Liam Camille Élodie Søren Björn Ingrid Åsa Jürgen Małgorzata Wojciech Zuzana Tomáš Jiří
        Ömer Ayşe Çağla Şebnem Giulia Francesco Niccolò Andrés Íñigo Sebastián Raúl Nuño Begoña João Conceição
        Gonçalo Inês Renée Anaïs Noël Joël Hélène Gaëlle Maëlys Benoît François Jérôme Frédéric Cécile Thérèse
        Zoé Clément Agnès Loïc Jörg Günther Käthe Bärbel Dörte Sören Malin Siv Bodil Eirik Ásgeir Þóra Guðrún
        Sigríður Árni Dagný Halldór Krzysztof Paweł Bożena Grażyna Jarosław Zdeněk Radek Věra Ondřej Miroslav
        István Zsófia Gábor Erzsébet Ádám Dóra Thảo Phương Đức Minh Hương Yusuf Emine Barış
        Oğuz Gökhan Ιωάννης Dmitri Natalia Sergei Olga Yuri Irina Aleksandr Ekaterina John Mary James Patricia
        Robert Jennifer Michael Linda William Elizabeth David Barbara Richard Susan Joseph Jessica Charles Sarah
        Christopher Karen Daniel Lisa Matthew Nancy Anthony Betty Mark Margaret Donald Sandra Steven Ashley Paul
        Kimberly Andrew Emily Joshua Donna Kenneth Michelle Kevin Carol Brian Amanda George Melissa Timothy
        Deborah Ronald Stephanie Edward Rebecca Jason Sharon Jeffrey Laura Ryan Cynthia Jacob Kathleen Gary Amy
        Nicholas Angela Eric Shirley Jonathan Anna-Lena Stephen Brenda Larry Pamela Justin Emma-Louise Scott
        Nicole Brandon Helen Benjamin Samantha Samuel Katherine Gregory Christine Alexander Debra Frank Rachel
        Patrick Carolyn Raymond Janet Jack Catherine Dennis Maria Jerry Heather Tyler Diane Aaron Ruth Josephine
        Jose Josef Joseph Josué Josiane Joséphine Annabelle Annika Anneliese Annette Annie Antoine Anton Antonio
        Ann Anne Anaëlle Andrea Andreas Andrée Ángel Ángela Mohammed Fatima Ahmed Aïcha Youssef Khadija Omar
        Leïla Karim Yasmine Rachid Samira Mehdi Inès Wei Li Ming Hui Jun Yan Hiroshi Yuki Haruto Sakura Kenji
        Aiko Ji-woo Min-jun Seo-yeon Priya Rahul Ananya Arjun Deepika Vikram Sunita Kwame Ama Chidi Ngozi Oluwaseun
        Amara Mandla Thandiwe Aroha Tane Mele Pita Siosaia Kalani Keanu Zoltán Réka Lőrinc Ágnes Imre Tünde Ödön
        """)

    static let family: [String] = words(
        """
        Smith Müller García Martin Rossi Nuñez Ångström Kowalski Nowak Dubois Lefèvre Schmidt Schneider Fischer
        Weber Meyer Wagner Becker Schulz Hoffmann Schäfer Koch Bauer Richter Klein Wolf Schröder Neumann Schwarz
        Zimmermann Braun Krüger Hofmann Hartmann Lange Schmitt Werner Schmitz Krause Meier Lehmann Köhler Groß
        Rodríguez González Fernández López Martínez Sánchez Pérez Gómez Díaz Hernández Muñoz Álvarez Romero Alonso
        Gutiérrez Navarro Torres Domínguez Vázquez Ramos Gil Ramírez Serrano Blanco Suárez Molina Morales Ortega
        Delgado Castro Ortiz Rubio Marín Sanz Iglesias Medina Garrido Cortés Castillo Santos Lozano Guerrero Cano
        Prieto Méndez Cruz Calvo Gallego Vidal León Márquez Herrera Peña Flores Cabrera Campos Vega Fuentes Carrasco
        Bernard Thomas Petit Robert Richard Durand Leroy Moreau Simon Laurent Lefebvre Michel Fontaine Rousseau
        Blanc Guérin Muller Henry Roussel Nicolas Perrin Morin Mathieu Clément Gauthier Dumont Lopez Fontaine Chevalier
        Robin Masson Sanchez Gérard Nguyen Boyer Denis Lemaire Duval Joly Gautier Roger Roche Roy Noël Meyer Lucas
        Meunier Jean Perez Marchand Dufour Blanchard Gillet Chevallier Fabre Brunet Schmitt Dupont Bréchet Aubé
        Johansson Andersson Karlsson Nilsson Eriksson Larsson Olsson Persson Svensson Gustafsson Pettersson Jönsson
        Jansson Hansson Bengtsson Jørgensen Sørensen Rasmussen Jensen Nielsen Pedersen Christensen Søndergaard
        Wiśniewski Wójcik Kowalczyk Kamiński Lewandowski Zieliński Szymański Woźniak Dąbrowski Kozłowski Jankowski
        Mazur Kwiatkowski Krawczyk Piotrowski Grabowski Pawłowski Michalski Król Wieczorek Jabłoński Nováková
        Novák Svoboda Novotný Dvořák Černý Procházka Kučera Veselý Horák Němec Pokorný Marek Pospíšil Hájek Jelínek
        Yılmaz Kaya Demir Şahin Çelik Yıldız Yıldırım Öztürk Aydın Özdemir Arslan Doğan Kılıç Aslan Çetin Kara
        Koç Kurt Özkan Şimşek Nagy Kovács Tóth Szabó Horváth Varga Kiss Molnár Németh Farkas Balogh Papp Takács
        Juhász Lakatos Mészáros Oláh Simon Rácz Fekete Nguyễn Trần Lê Phạm Hoàng Huỳnh Phan Vũ Võ Đặng Bùi Đỗ Hồ
        Ngô Dương Lý Johnson Williams Brown Jones Miller Davis Wilson Anderson Taylor Moore Jackson White Harris
        Thompson Clark Lewis Robinson Walker Young Allen King Wright Scott Hill Green Adams Baker Nelson Carter
        Mitchell Roberts Turner Phillips Campbell Parker Evans Edwards Collins Stewart Morris Rogers Reed Cook
        Morgan Bell Murphy Bailey Cooper Richardson Cox Howard Ward Peterson Gray James Watson Brooks Kelly Sanders
        Price Bennett Wood Barnes Ross Henderson Coleman Jenkins Perry Powell Long Patterson Hughes Washington
        Butler Simmons Foster Bryant Alexander Russell Griffin Hayes Myers Ford Hamilton Graham Sullivan Wallace
        Ferrari Esposito Bianchi Romano Colombo Ricci Marino Greco Bruno Gallo Conti De Luca Mancini Costa Giordano
        Rizzo Lombardi Moretti Barbieri Fontana Santoro Mariani Rinaldi Caruso Ferrara Galli Martini Leone Longo
        Silva Pereira Oliveira Sousa Rodrigues Ferreira Alves Gonçalves Gomes Ribeiro Carvalho Lopes Magalhães
        Conceição Araújo Gaspar Simões Brandão Mendonça Tanaka Suzuki Takahashi Watanabe Itō Yamamoto Nakamura
        Kobayashi Katō Yoshida Yamada Sasaki Yamaguchi Matsumoto Inoue Kimura Kim Lee Park Choi Jung Kang Cho Yoon
        Wang Zhang Liu Chen Yang Huang Zhao Wu Zhou Xu Sun Ma Zhu Hu Guo He Gao Lin Luo Zheng Patel Sharma Singh
        Kumar Gupta Mehta Iyer Reddy Nair Chatterjee Banerjee Okafor Okonkwo Mensah Boateng Adeyemi Abubakar Diallo
        Traoré Keïta Ndiaye Haddad Khoury Mansour Nasser Saleh Hassan Hussein Abdullah Ibrahim Mahmoud
        """)

    /// Roots and endings combined into a few thousand more family names.
    static let familyRoots: [String] = words(
        """
        Ber Kow Mar Lund Hag Strö Wal Ros Fal Kron Berg Dal Holm Sand Lind Ek Sjö Grün Schön Weiß Hoch Alt Neu
        Rot Stein Eich Bach Brand Fried Gold Haas Kirch Lich Mandel Ostro Pod Sienk Zaj Wrób Chmiel Góra Dobr
        Mart Fern Rodr Gonz Esc Val Alb Cas Mor Bel Mont Beau Ville Roch Chât Vér Pont Dela Lafa Bouch Ferr
        Lombar Vent Card Orsi Bened Sabat Petr Ivan Novo Kuzn Sokol Vol Pav Yeg Orl Ander Thor Gud Sigur Ól
        """)
    static let familyEndings: [String] = words(
        """
        ski ska sson sen mann berg ström quist gren holm lund ez es ini ello etti ović ić escu ault eau ière ier
        ens ek ák ová uk enko ov ova ev in ian yan oğlu ard ot ac eira inho ão dóttir ssen feld hoff bauer
        """)

    static var allFamily: [String] {
        var names = family
        for root in familyRoots {
            for ending in familyEndings { names.append(root + ending) }
        }
        return names
    }

    static let middle: [String] = words(
        "Marie Louise Ann Jean James Lee Maria Josef Élise Pierre Søren Ana Karl Rose Eugène")
    static let nicknames: [String] = words("Jo Annie Bobby Kiki Zozo Lulu Maxi Toto Bibi Jojo Nico Sasha Pepe Juju")

    static let organizationWords: [String] = words(
        """
        Acme Globex Initech Umbrella Hooli Vandelay Nordisk Ørsted Société Générale Müller Söhne Crédit Mutuel
        Zürich Versicherung Ångström Labs Øresund Logistics Bäckerei Łódź Café Méditerranée Fjällräven Škoda
        Peña Hermanos Çelik Yapı Nuñez Abogados Björk Design Élan Studio Größe Technik Lumière Films
        """)
    static let organizationSuffixes: [String] = [
        "GmbH", "SA", "Ltd", "Inc.", "SARL", "AB", "Sp. z o.o.", "S.L.", "AG", "LLC", "& Co", "",
    ]
    static let jobTitles: [String] = [
        "Ingénieure", "Software Engineer", "Directeur commercial", "Geschäftsführer", "Abogada", "Nurse",
        "Teacher", "Comptable", "Product Manager", "Designer", "Architekt", "Médecin", "Consultant", "CEO",
    ]
    static let groupNames: [String] = [
        "Family", "Friends", "Work", "Club de lecture", "Équipe Zürich", "Fußball", "Voisins", "Chorale",
        "Conférence 2024", "Kunden", "Fournisseurs", "Old school", "Ski trip", "Babysitters", "Médecins",
    ]
    static let emailDomains: [String] = [
        "gmail.com", "yahoo.fr", "outlook.com", "proton.me", "web.de", "orange.fr", "icloud.com", "gmx.de",
        "wp.pl", "seznam.cz", "libero.it", "hotmail.co.uk", "example.org", "free.fr", "telia.se",
    ]
    static let streets: [String] = words(
        """
        Hauptstraße Rue_de_la_Paix Calle_Mayor Storgatan Ulica_Długa Main_Street High_Street Via_Roma
        Avenue_des_Champs-Élysées Königsallee Rua_Augusta Nørregade Václavské_náměstí Bahnhofstraße
        Rue_Sainte-Catherine Calle_de_Alcalá Kungsgatan Oak_Avenue Maple_Drive Église_Saint-Éloi
        """
    ).map { $0.replacingOccurrences(of: "_", with: " ") }
    /// (city, postal code prefix, country, ISO code)
    static let cities: [(String, String, String, String)] = [
        ("Paris", "75", "France", "fr"), ("Lyon", "69", "France", "fr"), ("Besançon", "25", "France", "fr"),
        ("München", "80", "Deutschland", "de"), ("Köln", "50", "Deutschland", "de"),
        ("Berlin", "10", "Deutschland", "de"),
        ("Málaga", "29", "España", "es"), ("A Coruña", "15", "España", "es"), ("Madrid", "28", "España", "es"),
        ("Göteborg", "41", "Sverige", "se"), ("Malmö", "21", "Sverige", "se"), ("Kraków", "30", "Polska", "pl"),
        ("Łódź", "90", "Polska", "pl"), ("Brno", "60", "Česko", "cz"), ("Zürich", "80", "Schweiz", "ch"),
        ("Genève", "12", "Suisse", "ch"), ("London", "SW", "United Kingdom", "gb"), ("New York", "10", "USA", "us"),
        ("San José", "95", "USA", "us"), ("Montréal", "H2", "Canada", "ca"), ("København", "12", "Danmark", "dk"),
        ("İstanbul", "34", "Türkiye", "tr"), ("São Paulo", "01", "Brasil", "br"), ("Reykjavík", "10", "Ísland", "is"),
    ]

    private static func words(_ text: String) -> [String] {
        text.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)
    }
}
